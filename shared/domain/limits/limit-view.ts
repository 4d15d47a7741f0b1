import type { PermissionLevel } from '../permissions';
import { type CapDefinition, type CapGrid } from './cap-grid';
import type { CurrentCounters } from '../delivery/counter-state';
import { ExactNumber, unitScale } from '../delivery/exact-units';
import { formatLimitDate } from './limit-dates';
import type { LimitRecord } from './limit-record';

export interface ViewPolicy {
  grid: CapGrid;
  permissionOf(cap: CapDefinition): PermissionLevel;
  /** Supply side names hidden caps with their permission in `fieldsHiddenByPermission`. */
  reportHidden: boolean;
}

/** A cap's counter now, in units (a budget's unit is a thousandth); a period without counters reads as 0. */
export const counterUnits = (cap: CapDefinition, counters: CurrentCounters): bigint =>
  counters[cap.period]?.[cap.metric] ?? 0n;

/** A cap's counter as the read shape shows it: an exact number, however large. */
export const counterValue = (cap: CapDefinition, counters: CurrentCounters): ExactNumber =>
  ExactNumber.of(counterUnits(cap, counters), unitScale(cap.metric));

/**
 * The read shape of a limit. A cap never set is left out with its counter, and so is one whose permission the
 * caller holds neither ENABLED nor READONLY. Dates are UTC unless the read asked for an offset and the limit is
 * on local time.
 */
export const renderLimit = ({
  idField,
  entityId,
  record,
  counters,
  policy,
  displayOffset,
}: {
  /** The level's id field (`campaignId`, …), the first field of the shape. */
  idField: string;
  entityId: number;
  /** Absent when the entity has no limits: `limitsSet: false`. */
  record?: LimitRecord;
  counters: CurrentCounters;
  policy: ViewPolicy;
  /** The offset a read asked for; dates of a limit on local time are shown in it. Default: UTC. */
  displayOffset?: number;
}): Record<string, unknown> => {
  if (!record) return { [idField]: entityId, limitsSet: false };
  const offset = displayOffset !== undefined && record.useLocalTime ? displayOffset : undefined;
  const view: Record<string, unknown> = { [idField]: entityId, id: record.id, limitsSet: true };
  if (record.startDate !== undefined) view.startDate = formatLimitDate(record.startDate, offset);
  if (record.endDate !== undefined) view.endDate = formatLimitDate(record.endDate, offset);
  view.evenPacing = record.evenPacing;
  view.useLocalTime = record.useLocalTime;
  if (offset !== undefined) view.timezoneOffset = offset;
  const hidden: Record<string, string> = {};
  for (const cap of policy.grid.caps) {
    if (record.caps[cap.name] === undefined) continue;
    if (policy.permissionOf(cap) === 'DISABLED') {
      hidden[cap.name] = cap.permission;
      continue;
    }
    view[cap.name] = record.caps[cap.name];
    view[cap.counter] = counterValue(cap, counters);
  }
  if (policy.reportHidden && Object.keys(hidden).length > 0) view.fieldsHiddenByPermission = hidden;
  return view;
};
