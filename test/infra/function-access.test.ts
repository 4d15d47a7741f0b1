import { describe, expect, it } from 'vitest';
import { FUNCTION_ACCESS } from '../../infra/cdk/function-access';
import { meterKey } from '../../shared/table/keys';

const reaches = (patterns: readonly string[], partitionKey: string) =>
  patterns.some((pattern) => partitionKey.startsWith(pattern.replace(/\*$/, '')));

describe('table access of the limit families', () => {
  it('covers the quota item each family writes for a partner signing in the form body', () => {
    const meterPartition = meterKey(7, '2026-11-25').PK;
    for (const family of ['demand-limits', 'supply-limits', 'per-action'] as const)
      expect(reaches(FUNCTION_ACCESS[family].leadingKeys, meterPartition), family).toBe(true);
    expect(reaches(FUNCTION_ACCESS.auth.leadingKeys, meterPartition)).toBe(false);
  });
});
