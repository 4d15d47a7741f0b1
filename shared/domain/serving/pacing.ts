import type { CurrentCounters } from '../delivery/counter-state';
import { ExactNumber, unitScale, unitsFromCap } from '../delivery/exact-units';
import type { CapDefinition, CapGrid } from '../limits/cap-grid';
import type { LimitRecord } from '../limits/limit-record';
import { counterUnits } from '../limits/limit-view';
import { periodBounds } from '../limits/periods';

/** How one cap is pacing: what even delivery would have reached by now, the recent rate, and where it leads. */
export interface PacingEntry {
  field: string;
  cap: number;
  counter: ExactNumber;
  periodStart: string;
  periodEnd: string;
  expected: ExactNumber;
  /** counter / expected; null while expected is 0. */
  pace: number | null;
  rateBasis: 'period';
  ratePerHour: ExactNumber;
  projectedAtPeriodEnd: ExactNumber;
  /** When the counter reaches the cap at that rate (now, if it has); null when it will not within the period. */
  projectedReachAt: string | null;
}

const HOUR_MS = 3_600_000n;

/** The period a cap is paced over, clipped to the limit's start and end dates; none for a total without both dates. */
const pacedPeriod = (cap: CapDefinition, limit: LimitRecord, now: Date): [number, number] | undefined => {
  if (cap.period === 'total')
    return limit.startDate !== undefined && limit.endDate !== undefined && limit.endDate > limit.startDate
      ? [limit.startDate, limit.endDate]
      : undefined;
  const [start, end] = periodBounds(cap.period, now);
  const clippedStart = limit.startDate !== undefined && limit.startDate > start ? limit.startDate : start;
  const clippedEnd = limit.endDate !== undefined && limit.endDate < end ? limit.endDate : end;
  return clippedEnd > clippedStart ? [clippedStart, clippedEnd] : undefined;
};

const ratio = (numerator: bigint, denominator: bigint): number =>
  Math.round((Number((numerator * 1_000_000n) / denominator) / 1_000_000) * 1000) / 1000;

/**
 * Pacing of every non-zero cap of a limit the caller may see: daily, weekly and monthly caps over their period,
 * total caps over the limit's start to end date. Figures are exact, in the cap's units (budgets to the thousandth).
 * The rate is the average since the period began (`rateBasis: "period"`). Pure.
 */
export const pacingOf = (
  limit: LimitRecord,
  grid: CapGrid,
  counters: CurrentCounters,
  { now, visible = () => true }: { now: Date; visible?: (cap: CapDefinition) => boolean },
): PacingEntry[] =>
  grid.caps.flatMap((cap) => {
    const value = limit.caps[cap.name] ?? 0;
    const period = value > 0 && visible(cap) ? pacedPeriod(cap, limit, now) : undefined;
    if (!period) return [];
    const [start, end] = period;
    const scale = unitScale(cap.metric);
    const capUnits = unitsFromCap(value, scale);
    const counter = counterUnits(cap, counters);
    const length = BigInt(end - start);
    const elapsed = BigInt(Math.min(Math.max(now.getTime() - start, 0), end - start));
    const left = length - elapsed;
    const expected = (capUnits * elapsed) / length;
    // the average rate since the period began, per hour and per the time left
    const projected = elapsed > 0n ? counter + (counter * left) / elapsed : counter;
    const reachAt =
      counter >= capUnits
        ? now.getTime()
        : counter > 0n && elapsed > 0n
          ? now.getTime() + Number(((capUnits - counter) * elapsed) / counter)
          : undefined;
    return [
      {
        field: cap.name,
        cap: value,
        counter: ExactNumber.of(counter, scale),
        periodStart: new Date(start).toISOString(),
        periodEnd: new Date(end).toISOString(),
        expected: ExactNumber.of(expected, scale),
        pace: expected > 0n ? ratio(counter, expected) : null,
        rateBasis: 'period' as const,
        // to the thousandth of a unit per hour, counts included
        ratePerHour: ExactNumber.of(elapsed > 0n ? (counter * (1000n / scale) * HOUR_MS) / elapsed : 0n, 1000n),
        projectedAtPeriodEnd: ExactNumber.of(projected, scale),
        projectedReachAt: reachAt !== undefined && reachAt <= end ? new Date(reachAt).toISOString() : null,
      },
    ];
  });
