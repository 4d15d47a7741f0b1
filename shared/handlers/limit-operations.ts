import type { Implementations } from '../pipeline/family-handler';
import type { Ports } from '../runtime/dependencies';
import { limitHistory, limitStatus, readLimit } from './limit-reads';
import { queueReset } from './limit-reset';
import { deleteLimit, writeLimit } from './limit-writes';

/** read, set, update, reset and delete for all five levels: one implementation, parameterised by the level's policy. */
export const limitOperations = (dependencies: Ports<'store' | 'clock' | 'resetQueue'>): Implementations => ({
  'limits.read': readLimit(dependencies),
  'limits.status': limitStatus(dependencies),
  'limits.history': limitHistory(dependencies),
  'limits.set': writeLimit(dependencies, 'set'),
  'limits.update': writeLimit(dependencies, 'update'),
  'limits.reset': queueReset(dependencies),
  'limits.resetByDelete': queueReset(dependencies),
  'limits.delete': deleteLimit(dependencies),
});
