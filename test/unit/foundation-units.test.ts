import { describe, expect, it } from 'vitest';
import { ControllableClock } from '../../infra/local/controllable-clock';
import { constantTimeEquals, hashPassword, md5Hex, randomToken, sha256Hex, verifyPassword } from '../../shared/domain/auth/crypto';
import { TABLE_DEFINITION } from '../../shared/table/table-definition';
import { createTableInput } from '../../shared/adapters/dynamodb/create-table-input';

describe('controllable clock', () => {
  it('follows real time until fixed, then moves only when told', () => {
    const clock = new ControllableClock();
    expect(Math.abs(clock.now().getTime() - Date.now())).toBeLessThan(1000);
    clock.set(new Date('2026-11-22T10:00:00Z'));
    expect(clock.now().toISOString()).toBe('2026-11-22T10:00:00.000Z');
    clock.advance(61);
    expect(clock.now().toISOString()).toBe('2026-11-22T10:01:01.000Z');
    clock.set(null);
    clock.advance(3600);
    expect(clock.now().getTime() - Date.now()).toBeGreaterThan(3590_000);
  });
});

describe('crypto helpers', () => {
  it('hashes passwords with a salt and verifies them', async () => {
    const first = await hashPassword('correct horse');
    const second = await hashPassword('correct horse');
    expect(first).not.toBe(second);
    expect(first.startsWith('scrypt$')).toBe(true);
    expect(await verifyPassword('correct horse', first)).toBe(true);
    expect(await verifyPassword('correct horsf', first)).toBe(false);
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
  });

  it('computes the digests clients compute', () => {
    expect(md5Hex('password')).toBe('5f4dcc3b5aa765d61d8327deb882cf99');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('makes 128-bit hex tokens and compares in constant time', () => {
    expect(randomToken()).toMatch(/^[0-9a-f]{32}$/);
    expect(randomToken()).not.toBe(randomToken());
    expect(constantTimeEquals('abc', 'abc')).toBe(true);
    expect(constantTimeEquals('abc', 'abd')).toBe(false);
    expect(constantTimeEquals('abc', 'abcd')).toBe(false);
  });
});

describe('table definition', () => {
  it('creates the table with the shared key schema and the parent index', () => {
    const input = createTableInput('t');
    expect(input.KeySchema).toEqual([
      { AttributeName: TABLE_DEFINITION.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_DEFINITION.sortKey, KeyType: 'RANGE' },
    ]);
    expect(input.BillingMode).toBe('PAY_PER_REQUEST');
    expect(input.GlobalSecondaryIndexes?.[0]?.IndexName).toBe(TABLE_DEFINITION.byParentIndex.indexName);
  });
});
