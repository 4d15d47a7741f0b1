import { describe, expect, it } from 'vitest';
import { FUNCTION_ACCESS } from '../../infra/cdk/function-access';
import { meterKey, webhookKey } from '../../shared/table/keys';

/** IAM's `StringLike` on a partition key: a trailing `*` any characters, else the key exactly. */
const reaches = (patterns: readonly string[], partitionKey: string) =>
  patterns.some((pattern) =>
    pattern.endsWith('*') ? partitionKey.startsWith(pattern.slice(0, -1)) : partitionKey === pattern,
  );

describe('table access of the limit families', () => {
  it('covers the quota item each family writes for a partner signing in the form body', () => {
    const meterPartition = meterKey(7, '2026-11-25').PK;
    for (const family of ['demand-limits', 'supply-limits', 'per-action', 'webhooks'] as const)
      expect(reaches(FUNCTION_ACCESS[family].writes?.leadingKeys ?? [], meterPartition), family).toBe(true);
    expect(reaches(FUNCTION_ACCESS.auth.writes?.leadingKeys ?? [], meterPartition)).toBe(false);
  });

  it('lets the webhooks family, and no limit family, read and write the subscriptions partition', () => {
    const subscriptions = webhookKey(7, 'wh_abcdefghijklmnopqrst').PK;
    const { reads, writes } = FUNCTION_ACCESS.webhooks;
    expect(reaches(reads?.leadingKeys ?? [], subscriptions)).toBe(true);
    expect(reaches(writes?.leadingKeys ?? [], subscriptions)).toBe(true);
    for (const family of ['demand-limits', 'supply-limits', 'per-action', 'auth', 'authorizer'] as const) {
      expect(reaches(FUNCTION_ACCESS[family].reads?.leadingKeys ?? [], subscriptions), family).toBe(false);
      expect(reaches(FUNCTION_ACCESS[family].writes?.leadingKeys ?? [], subscriptions), family).toBe(false);
    }
  });
});
