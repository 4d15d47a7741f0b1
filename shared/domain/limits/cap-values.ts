import type { CapDefinition } from './cap-grid';

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

const COUNT = /^\d{1,10}$/;
const BUDGET = /^\d{1,10}(\.\d{1,3})?$/;

/**
 * A cap value as sent: counts are integers 0..4,000,000,000; budgets decimals 0..9,999,999,999.999 with at
 * most three fraction digits. Such a budget has at most 13 significant digits, so a JavaScript number holds
 * it exactly; sums are left to DynamoDB, which adds decimals exactly.
 */
export const parseCapValue = (cap: CapDefinition, text: string): Parsed<number> => {
  if (cap.valueType === 'count') {
    if (!COUNT.test(text)) return { ok: false, reason: `must be a whole number from 0 to ${cap.maximum}` };
  } else if (!BUDGET.test(text)) {
    return { ok: false, reason: 'must be a decimal number from 0 to 9999999999.999 with at most 3 decimal places' };
  }
  const value = Number(text);
  if (value > cap.maximum)
    return { ok: false, reason: `must be at most ${cap.valueType === 'budget' ? '9999999999.999' : cap.maximum}` };
  return { ok: true, value };
};
