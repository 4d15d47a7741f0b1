import type { Implementations } from '../pipeline/family-handler';
import type { Ports } from '../runtime/dependencies';
import { changeActionLimit } from './per-action-changes';
import { deleteActionLimits } from './per-action-deletes';
import { listActionLimits } from './per-action-list';
import { setActionSwitch } from './per-action-switch';
import { markingDenials } from './per-action-target';

/** list, add, update, delete, enable and disable of per-action limits; every 403 marked `permissionDenied`. */
export const perActionOperations = (dependencies: Ports<'store' | 'clock'>): Implementations => {
  const operations: Implementations = {
    'perAction.list': listActionLimits(dependencies),
    'perAction.add': changeActionLimit(dependencies, 'add'),
    'perAction.update': changeActionLimit(dependencies, 'update'),
    'perAction.delete': deleteActionLimits(dependencies),
    'perAction.enable': setActionSwitch(dependencies, true),
    'perAction.disable': setActionSwitch(dependencies, false),
  };
  return Object.fromEntries(
    Object.entries(operations).map(([operation, handler]) => [operation, markingDenials(handler)]),
  );
};
