import { describe, expect, it } from 'vitest';
import type { AwsRequest } from '../../infra/local/aws-request-log';
import { anchoredLeadingKey, checkRequests, type UnexercisedGrant } from '../support/iam/request-check';
import type { RoleUnderTest } from '../support/iam/template-roles';

const TABLE = 'arn:aws:dynamodb:eu-west-1:111122223333:table/Table1';
const QUEUE = 'arn:aws:sqs:eu-west-1:111122223333:Queue1';

/** A role shaped as the stack's: table reads and writes limited by partitions, one queue, its log group. */
const role: RoleUnderTest = {
  statements: [
    {
      Effect: 'Allow',
      Action: ['dynamodb:GetItem', 'dynamodb:Query'],
      Resource: [TABLE],
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['ADVERTISER#*', 'USER#*'] } },
    },
    {
      Effect: 'Allow',
      Action: ['dynamodb:PutItem'],
      Resource: [TABLE],
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['ADVERTISER#*'] } },
    },
    { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: QUEUE },
  ],
  targets: { TABLE_NAME: TABLE, RESET_QUEUE_URL: QUEUE },
};
const roles = { 'demand-limits': role };

const request = (action: string, partitionKey?: string, target: AwsRequest['target'] = 'TABLE_NAME'): AwsRequest => ({
  function: 'demand-limits',
  action,
  target,
  ...(partitionKey !== undefined ? { partitionKey } : {}),
});

/** Requests that use every grant of the role. */
const EVERY_GRANT = [
  request('dynamodb:GetItem', 'ADVERTISER#1'),
  request('dynamodb:Query', 'USER#7'),
  request('dynamodb:PutItem', 'ADVERTISER#1'),
  request('sqs:SendMessage', undefined, 'RESET_QUEUE_URL'),
];

describe('the IAM check of recorded requests', () => {
  it('passes requests that use every grant, each allowed', async () => {
    expect(await checkRequests(roles, EVERY_GRANT, [], true)).toEqual({
      denied: [],
      unused: [],
      staleExemptions: [],
      looseLeadingKeys: [],
    });
  });

  it('refuses an action no statement grants: a transaction ConditionCheck needs dynamodb:ConditionCheckItem', async () => {
    const check = await checkRequests(
      roles,
      [...EVERY_GRANT, request('dynamodb:ConditionCheckItem', 'ADVERTISER#1')],
      [],
      true,
    );
    expect(check.denied).toEqual([
      {
        request: request('dynamodb:ConditionCheckItem', 'ADVERTISER#1'),
        resource: TABLE,
        result: 'ImplicitlyDenied',
      },
    ]);
  });

  it('refuses a granted action on a partition outside its dynamodb:LeadingKeys', async () => {
    const check = await checkRequests(roles, [...EVERY_GRANT, request('dynamodb:PutItem', 'USER#7')], [], true);
    expect(check.denied.map(({ request }) => request)).toEqual([request('dynamodb:PutItem', 'USER#7')]);
  });

  it('refuses a request once its grant is removed', async () => {
    const withoutQueue = { 'demand-limits': { ...role, statements: role.statements.slice(0, 2) } };
    const check = await checkRequests(withoutQueue, EVERY_GRANT, [], true);
    expect(check.denied.map(({ request }) => request.action)).toEqual(['sqs:SendMessage']);
  });

  it('reports an action no request used', async () => {
    const check = await checkRequests(roles, EVERY_GRANT.slice(0, 1).concat(EVERY_GRANT.slice(2)), [], true);
    expect(check.unused).toEqual([{ function: 'demand-limits', resource: TABLE, action: 'dynamodb:Query' }]);
  });

  it('lets a listed grant go unused, and reports an entry that excuses nothing', async () => {
    const excused: UnexercisedGrant = {
      functions: ['demand-limits'],
      resource: /:Queue1$/,
      actions: ['sqs:SendMessage'],
      reason: 'sent by something the tests do not run',
    };
    const stale: UnexercisedGrant = { ...excused, actions: ['sqs:ReceiveMessage'], reason: 'no longer granted' };
    const check = await checkRequests(roles, EVERY_GRANT.slice(0, 3), [excused, stale], true);
    expect(check).toEqual({ denied: [], unused: [], staleExemptions: [stale], looseLeadingKeys: [] });
  });

  it('reports a leading key that reaches partitions beyond its own, whichever tests ran', async () => {
    const loose = structuredClone(role);
    loose.statements[0]!.Condition!['ForAllValues:StringLike']!['dynamodb:LeadingKeys'] = ['ADVERTISER#*', 'WEBHOOKS*'];
    for (const complete of [true, false]) {
      const check = await checkRequests({ 'demand-limits': loose }, EVERY_GRANT, [], complete);
      expect(check.looseLeadingKeys).toEqual([{ function: 'demand-limits', pattern: 'WEBHOOKS*' }]);
    }
    expect(['USER#*', 'WEBHOOKS', 'WEBHOOKS#*'].filter(anchoredLeadingKey)).toHaveLength(3);
    expect(['USER*', 'WEBHOOKS*', 'A?#*', 'A*#*', '*'].filter(anchoredLeadingKey)).toEqual([]);
  });

  it('checks only the requests when not every test ran', async () => {
    const check = await checkRequests(roles, [request('dynamodb:ConditionCheckItem', 'ADVERTISER#1')], [], false);
    expect(check.denied).toHaveLength(1);
    expect(check.unused).toEqual([]);
  });

  it('fails on a request to a resource the function is not configured with', async () => {
    await expect(
      checkRequests(roles, [request('events:PutEvents', undefined, 'EVENT_BUS_NAME')], [], true),
    ).rejects.toThrow('demand-limits has no EVENT_BUS_NAME in its environment');
  });
});
