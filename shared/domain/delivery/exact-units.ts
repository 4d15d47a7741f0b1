/**
 * Counters are exact integers of units, in BigInt: a count is its own unit, a budget's unit is a thousandth. They
 * reach DynamoDB and JSON as decimal text, never through binary floating point.
 */
import type { Metric } from '../limits/cap-axes';

/** Thousandths per currency unit for budgets; counts are whole. */
export const unitScale = (metric: Metric): bigint => (metric === 'budget' ? 1000n : 1n);

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** Decimal text (as DynamoDB stores it) to units of `scale`; digits beyond the scale are dropped. Garbage reads as 0. */
export const unitsFromText = (text: string, scale: bigint): bigint => {
  const match = DECIMAL.exec(text.trim());
  if (!match) return 0n;
  const places = scale === 1000n ? 3 : 0;
  const fraction = (match[2] ?? '').padEnd(places, '0').slice(0, places);
  return BigInt(match[1]!) * scale + (places > 0 ? BigInt(fraction) : 0n);
};

/** Units back to the shortest exact decimal text: 1000 thousandths are `1`, 1500 are `1.5`. */
export const textFromUnits = (units: bigint, scale: bigint): string => {
  const sign = units < 0n ? '-' : '';
  const magnitude = units < 0n ? -units : units;
  const whole = magnitude / scale;
  const fraction = magnitude % scale;
  if (scale === 1n || fraction === 0n) return `${sign}${whole}`;
  return `${sign}${whole}.${String(fraction).padStart(3, '0').replace(/0+$/, '')}`;
};

/** A cap as the grid parses it (a JavaScript number of at most 13 significant digits) in units. */
export const unitsFromCap = (cap: number, scale: bigint): bigint => BigInt(Math.round(cap * Number(scale)));

/** A number JSON must carry exactly, whatever its size: rendered as its decimal text, unquoted. */
export class ExactNumber {
  constructor(readonly text: string) {}

  static of(units: bigint, scale: bigint): ExactNumber {
    return new ExactNumber(textFromUnits(units, scale));
  }
}
