import { beforeAll, describe, expect, it } from 'vitest';
import { PRODUCTION_CONTEXT, synthesize, type Synthesized } from './template';

let dev: Synthesized;
let production: Synthesized;
beforeAll(() => {
  dev = synthesize();
  production = synthesize(PRODUCTION_CONTEXT);
}, 120_000);

const reservedOf = (synthesized: Synthesized) =>
  Object.fromEntries(
    synthesized
      .ofType('AWS::Lambda::Function')
      .map(([id, fn]) => [id.replace(/Function.*$/, ''), fn.Properties.ReservedConcurrentExecutions]),
  );

describe('production', () => {
  it('is decided by the production flag, not by the stage name', () => {
    const named = synthesize({ stage: 'prod' });
    named.template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Delete' });
    expect(named.stack.terminationProtection).toBe(false);
    production.template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain' });
    expect(
      production.resources[Object.keys(production.resources).find((id) => id.startsWith('Table'))!]!.Properties,
    ).toMatchObject({ DeletionProtectionEnabled: true });
    expect(production.stack.terminationProtection).toBe(true);
  }, 60_000);

  it('keeps every log group and the event archive when the stack goes; a development stack does not', () => {
    for (const type of ['AWS::Logs::LogGroup', 'AWS::Events::Archive']) {
      expect(production.ofType(type).length, type).toBeGreaterThan(0);
      for (const [id, resource] of production.ofType(type)) expect(resource.DeletionPolicy, id).toBe('Retain');
      for (const [id, resource] of dev.ofType(type)) expect(resource.DeletionPolicy, id).toBe('Delete');
    }
  });

  it('refuses to synthesise without an alarm destination or with placeholder values', () => {
    expect(() => synthesize({ ...PRODUCTION_CONTEXT, alarmEmail: '' })).toThrow(/alarmEmail/);
    expect(() => synthesize({ ...PRODUCTION_CONTEXT, appBaseUrl: 'https://example.com' })).toThrow(/appBaseUrl/);
    expect(() => synthesize({ ...PRODUCTION_CONTEXT, mailFrom: 'no-reply@example.com' })).toThrow(/mailFrom/);
    expect(() =>
      synthesize({ ...PRODUCTION_CONTEXT, alarmEmail: '', alarmTopicArn: 'arn:aws:sns:eu-west-1:123456789012:oncall' }),
    ).not.toThrow();
  }, 60_000);
});

describe('reserved concurrency', () => {
  it('is off unless asked for, in production too', () => {
    for (const synthesized of [dev, production])
      for (const value of Object.values(reservedOf(synthesized))) expect(value).toBeUndefined();
  });

  it('reserves each function its share within the configured account limit', () => {
    const reserved = synthesize({ reservedConcurrency: 'true', accountConcurrencyLimit: '1000' });
    expect(reservedOf(reserved)).toEqual({
      authorizer: 200,
      auth: 20,
      demandlimits: 150,
      supplylimits: 80,
      peraction: 80,
      deliveryrecorder: 20,
      resetflush: 10,
      historyevents: 10,
    });
  }, 60_000);

  it('stops synthesis when the reservations would leave Lambda less than its 100 unreserved', () => {
    expect(() => synthesize({ reservedConcurrency: 'true', accountConcurrencyLimit: '669' })).toThrow(
      /reserves 570 .* at least 670/,
    );
    expect(() => synthesize({ reservedConcurrency: 'true', accountConcurrencyLimit: '670' })).not.toThrow();
    expect(() => synthesize({ reservedConcurrency: 'true' })).toThrow(/accountConcurrencyLimit/);
  }, 60_000);

  it('stops synthesis on automatic sharding set by halves or outside the shard counts the service takes', () => {
    expect(() => synthesize({ autoShardWritesPerSecond: '500' })).toThrow(/autoShardCount \(2 to 96\) go together/);
    expect(() => synthesize({ autoShardWritesPerSecond: '500', autoShardCount: '128' })).toThrow(/"128"/);
    expect(() => synthesize({ autoShardWritesPerSecond: '0', autoShardCount: '16' })).toThrow(/"0"/);
    expect(() => synthesize({ autoShardWritesPerSecond: '500', autoShardCount: '16' })).not.toThrow();
  }, 60_000);
});

describe('source maps', () => {
  const nodeOptions = (synthesized: Synthesized) =>
    synthesized
      .ofType('AWS::Lambda::Function')
      .map(([, fn]) => (fn.Properties.Environment as { Variables: Record<string, string> }).Variables.NODE_OPTIONS);

  it('are off by default (they slow every cold start) and on with sourceMaps=true', () => {
    expect(nodeOptions(dev).every((value) => value === undefined)).toBe(true);
    expect(nodeOptions(synthesize({ sourceMaps: 'true' })).every((value) => value === '--enable-source-maps')).toBe(
      true,
    );
  }, 60_000);
});

describe('AWS WAF', () => {
  interface RateRule {
    Name: string;
    Statement: {
      RateBasedStatement: {
        AggregateKeyType: string;
        Limit: number;
        EvaluationWindowSec: number;
        ScopeDownStatement: { NotStatement: { Statement: { OrStatement: { Statements: unknown[] } } } };
      };
    };
    Action: { Block: { CustomResponse: { ResponseCode: number; ResponseHeaders: { Name: string; Value: string }[] } } };
  }

  it('limits credential-less requests per source address in front of the stage, answering 429 with Retry-After', () => {
    const [aclId, acl] = dev.ofType('AWS::WAFv2::WebACL')[0]!;
    expect(acl.Properties).toMatchObject({ Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
    const [rule] = acl.Properties.Rules as RateRule[];
    const rate = rule!.Statement.RateBasedStatement;
    // the default plan's 50 requests a second over the five-minute window: a form-body partner at full rate passes
    expect(rate).toMatchObject({ AggregateKeyType: 'IP', Limit: 15_000, EvaluationWindowSec: 300 });
    const credentials = JSON.stringify(rate.ScopeDownStatement.NotStatement.Statement.OrStatement.Statements);
    for (const credential of ['x-api-key', 'hash', 'dl_session=']) expect(credentials).toContain(credential);
    expect(rule!.Action.Block.CustomResponse).toMatchObject({
      ResponseCode: 429,
      ResponseHeaders: [{ Name: 'Retry-After', Value: '60' }],
    });
    const [, association] = dev.ofType('AWS::WAFv2::WebACLAssociation')[0]!;
    expect(association.Properties.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    expect(JSON.stringify(association.Properties.ResourceArn)).toContain('/stages/');
  });

  it('takes its limit from the context', () => {
    const tuned = synthesize({ wafRateLimitPerIp: '3000' });
    const [, acl] = tuned.ofType('AWS::WAFv2::WebACL')[0]!;
    expect((acl.Properties.Rules as RateRule[])[0]!.Statement.RateBasedStatement.Limit).toBe(3000);
  }, 60_000);
});
