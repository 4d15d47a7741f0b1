import { beforeAll, describe, expect, it } from 'vitest';
import { CHECK_ACTIONS, FUNCTION_ACCESS, READ_ACTIONS, WRITE_ACTIONS } from '../../infra/cdk/function-access';
import { anchoredLeadingKey } from '../support/iam/request-check';
import {
  actionsOf,
  roleOf,
  statementsOf,
  synthesizedTemplate,
  type Statement,
  type SynthesizedTemplate,
} from './template';

let synthesized: SynthesizedTemplate;
beforeAll(() => {
  synthesized = synthesizedTemplate();
}, 60_000);

const leadingKeysOf = (statement: Statement): string[] =>
  (statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'] as string[] | undefined) ?? [];

/** A function's statements on table items (those limited by leading keys). */
const itemStatements = (name: string) =>
  statementsOf(synthesized, roleOf(synthesized, name)).filter(
    (statement) => actionsOf(statement).some((action) => action.startsWith('dynamodb:')) && statement.Condition,
  );

const isRead = (statement: Statement) =>
  actionsOf(statement).every((action) => (READ_ACTIONS as readonly string[]).includes(action));
const isWrite = (statement: Statement) =>
  actionsOf(statement).every((action) => (WRITE_ACTIONS as readonly string[]).includes(action));
const isCheck = (statement: Statement) =>
  actionsOf(statement).every((action) => (CHECK_ACTIONS as readonly string[]).includes(action));
const grantOf = (statement: Statement) => ({ actions: actionsOf(statement).sort(), keys: leadingKeysOf(statement) });
const expectedGrant = (grant?: { actions: readonly string[]; leadingKeys: readonly string[] }) =>
  grant ? [{ actions: [...grant.actions].sort(), keys: grant.leadingKeys }] : [];

describe('table access', () => {
  it('grants each function its reads, writes and checks in separate statements, each on its own partitions', () => {
    for (const [name, access] of Object.entries(FUNCTION_ACCESS)) {
      const statements = itemStatements(name);
      const reads = statements.filter(isRead);
      const writes = statements.filter(isWrite);
      const checks = statements.filter(isCheck);
      // a statement mixing kinds would be none of them
      expect(reads.length + writes.length + checks.length, name).toBe(statements.length);
      expect(reads.map(grantOf), name).toEqual(expectedGrant(access.reads));
      expect(writes.map(grantOf), name).toEqual(expectedGrant(access.writes));
      expect(checks.map(grantOf), name).toEqual(expectedGrant(access.checks));
    }
  });

  it('limits every grant to the partitions it names: a key exactly, or a prefix up to its "#"', () => {
    const patterns = Object.keys(FUNCTION_ACCESS).flatMap((name) => itemStatements(name).flatMap(leadingKeysOf));
    expect(patterns.length).toBeGreaterThan(20);
    expect(patterns.filter((pattern) => !anchoredLeadingKey(pattern))).toEqual([]);
  });

  it('lets no function write a user name or an e-mail item, and only auth (password resets) a user item', () => {
    for (const name of Object.keys(FUNCTION_ACCESS)) {
      const written = itemStatements(name).filter(isWrite).flatMap(leadingKeysOf);
      expect(written, name).not.toContain('USERNAME#*');
      expect(written, name).not.toContain('EMAIL#*');
      expect(written.includes('USER#*'), name).toBe(name === 'auth');
    }
  });

  it('lets the authorizer and the limit families read users and user names, and only auth read e-mail items', () => {
    for (const name of ['authorizer', 'demand-limits', 'supply-limits', 'per-action', 'webhooks']) {
      const read = itemStatements(name).filter(isRead).flatMap(leadingKeysOf);
      expect(read, name).toEqual(expect.arrayContaining(['USER#*', 'USERNAME#*']));
    }
    for (const name of Object.keys(FUNCTION_ACCESS)) {
      const read = itemStatements(name).filter(isRead).flatMap(leadingKeysOf);
      expect(read.includes('EMAIL#*'), name).toBe(name === 'auth');
    }
    expect(itemStatements('authorizer').filter(isWrite)).toEqual([]);
  });

  it('grants no other table action, and no wildcard', () => {
    // the stream trigger's own grant, on the stream (history-events' table reads are conditioned like every other)
    const STREAM_READ = [
      'dynamodb:ListStreams',
      'dynamodb:DescribeStream',
      'dynamodb:GetRecords',
      'dynamodb:GetShardIterator',
    ];
    for (const [name, access] of Object.entries(FUNCTION_ACCESS)) {
      const statements = statementsOf(synthesized, roleOf(synthesized, name));
      const unconditioned = statements
        .filter((statement) => !statement.Condition)
        .flatMap(actionsOf)
        .filter((action) => action.startsWith('dynamodb:'))
        .filter((action) => name !== 'history-events' || !STREAM_READ.includes(action));
      expect(unconditioned, name).toEqual(access.queriesIndexes?.length ? ['dynamodb:Query'] : []);
      expect(statements.flatMap(actionsOf), name).not.toContain('dynamodb:*');
    }
  });
});
