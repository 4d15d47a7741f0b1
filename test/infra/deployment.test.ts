import { beforeAll, describe, expect, it } from 'vitest';
import { plannedConcurrency, reservationsAt, stackNames, stackProps } from '../../infra/cdk/app';
import { DEVELOPMENT_LOAD } from '../../infra/cdk/load-settings';
import { quotaChecklist, UNRESERVED_MINIMUM } from '../../infra/cdk/quota-checklist';
import { TEMPLATE_RESOURCE_BUDGET } from './stack-templates';
import type { FunctionName } from '../../infra/cdk/bundling';
import { FUNCTION_ENVIRONMENT } from '../../infra/cdk/function-environment';
import {
  authEnvironment,
  authorizerEnvironment,
  deliveryRecorderEnvironment,
  historyEventsEnvironment,
  webhookDispatcherEnvironment,
  limitFamilyEnvironment,
  parseEnvironment,
  perActionEnvironment,
  webhooksEnvironment,
  resetFlushEnvironment,
  type EnvironmentSchema,
} from '../../shared/runtime/environment';
import {
  PRODUCTION_CONTEXT,
  synthesize,
  synthesizedTemplate,
  unbundledApp,
  type Synthesized,
  type SynthesizedTemplate,
} from './template';

let dev: SynthesizedTemplate;
let production: Synthesized;
beforeAll(() => {
  dev = synthesizedTemplate();
  production = synthesize(PRODUCTION_CONTEXT);
}, 300_000);

const reservedOf = (synthesized: SynthesizedTemplate) =>
  Object.fromEntries(
    synthesized
      .ofType('AWS::Lambda::Function')
      .map(([id, fn]) => [id.replace(/Function.*$/, ''), fn.Properties.ReservedConcurrentExecutions]),
  );

describe("a stage's stacks", () => {
  const names = stackNames(PRODUCTION_CONTEXT.stage);
  const STATEFUL = [
    'AWS::DynamoDB::Table',
    'AWS::SQS::Queue',
    'AWS::Events::EventBus',
    'AWS::Events::Archive',
    'AWS::SNS::Topic',
  ];

  it("keep every template at 60 % of CloudFormation's quotas at most, in production with the documented settings", () => {
    expect(Object.keys(production.templates).sort()).toEqual(
      [names.data, names.service, `${names.service}/Gateway`].sort(),
    );
    for (const [name, template] of Object.entries(production.templates)) {
      // 500 resources, 200 outputs and 200 parameters a template: 40 % headroom for the routes and alarms to come
      expect(template.resources, name).toBeLessThanOrEqual(TEMPLATE_RESOURCE_BUDGET);
      expect(template.outputs, name).toBeLessThanOrEqual(120);
      expect(template.parameters, name).toBeLessThanOrEqual(120);
    }
  });

  it('keep the data in a stack of its own, which depends on nothing, and the service, API and alarms in another', () => {
    const data = production.templates[names.data]!;
    for (const type of STATEFUL) expect(data.types[type], type).toBeGreaterThan(0);
    for (const [name, template] of Object.entries(production.templates).filter(([name]) => name !== names.data)) {
      for (const type of STATEFUL) expect(template.types[type], `${name} ${type}`).toBeUndefined();
      expect(
        template.types['AWS::Lambda::Function'] ?? template.types['AWS::ApiGateway::Method'],
        name,
      ).toBeGreaterThan(0);
    }
    expect(Object.keys(data.types).filter((type) => /Lambda|ApiGateway|CloudWatch|IAM::Role/.test(type))).toEqual([]);
    // redeploying the service reads the data stack's exports and changes nothing there
    expect(data.importsFrom).toEqual([]);
    expect(production.data.dependencies).toEqual([]);
    expect(production.stack.dependencies).toEqual([production.data]);
    expect(production.templates[names.service]!.importsFrom).toEqual([names.data]);
  });
});

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
    expect(production.data.terminationProtection).toBe(true);
  }, 60_000);

  it('keeps every log group and the event archive when the stack goes; a development stack does not', () => {
    const executionLogs = production
      .ofType('AWS::Logs::LogGroup')
      .filter(([, group]) =>
        JSON.stringify(group.Properties.LogGroupName ?? '').includes('API-Gateway-Execution-Logs_'),
      );
    expect(executionLogs.map(([, group]) => group.Properties.RetentionInDays)).toEqual([180]);
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

  it("reserves each function its share within the configured account limit, a new account's default", () => {
    const reserved = synthesize({ reservedConcurrency: 'true', accountConcurrencyLimit: '1000' });
    const total = Object.values(reservedOf(reserved)).reduce((sum: number, count) => sum + Number(count ?? 0), 0);
    expect(total).toBeLessThanOrEqual(1000 - UNRESERVED_MINIMUM);
    // a development stage's load: the stream consumer's and the dispatcher's shares are sized from it
    const expected = reservationsAt(DEVELOPMENT_LOAD, 10);
    expect(expected).toMatchObject({ authorizer: 200, 'demand-limits': 150, 'delivery-recorder': 10 });
    expect(reservedOf(reserved)).toEqual(
      Object.fromEntries(Object.entries(expected).map(([name, count]) => [name.replaceAll('-', ''), count])),
    );
  }, 60_000);

  it("sizes the recorder's reservation from deliveryMaxConcurrency, and refuses one below it, naming both", () => {
    const sized = synthesize({
      reservedConcurrency: 'true',
      accountConcurrencyLimit: '1000',
      deliveryMaxConcurrency: '200',
    });
    expect(reservedOf(sized).deliveryrecorder).toBe(200);
    expect(() =>
      synthesize({
        reservedConcurrency: 'true',
        accountConcurrencyLimit: '1000',
        deliveryMaxConcurrency: '200',
        recorderReservedConcurrency: '20',
      }),
    ).toThrow(/recorderReservedConcurrency=20 contradicts deliveryMaxConcurrency=200/);
  }, 60_000);

  it('stops synthesis when the reservations would leave Lambda less than its 100 unreserved', () => {
    const reserved = Object.values(reservationsAt(DEVELOPMENT_LOAD, 10)).reduce((sum, count) => sum + count, 0);
    const needed = reserved + UNRESERVED_MINIMUM;
    expect(() => synthesize({ reservedConcurrency: 'true', accountConcurrencyLimit: String(needed - 1) })).toThrow(
      new RegExp(`reserves ${reserved} .* at least ${needed}`),
    );
    expect(() => synthesize({ reservedConcurrency: 'true', accountConcurrencyLimit: String(needed) })).not.toThrow();
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
  const nodeOptions = (synthesized: SynthesizedTemplate) =>
    synthesized
      .ofType('AWS::Lambda::Function')
      .map(
        ([, fn]) =>
          (fn.Properties.Environment as { Variables: Record<string, string> } | undefined)?.Variables.NODE_OPTIONS,
      );

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

  const rulesOf = (synthesized: SynthesizedTemplate) => {
    const [, acl] = synthesized.ofType('AWS::WAFv2::WebACL')[0]!;
    return Object.fromEntries((acl.Properties.Rules as RateRule[]).map((rule) => [rule.Name, rule]));
  };

  it('limits credential-less requests per source address in front of the stage, answering 429 with Retry-After', () => {
    const [aclId, acl] = dev.ofType('AWS::WAFv2::WebACL')[0]!;
    expect(acl.Properties).toMatchObject({ Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
    const rule = rulesOf(dev).CredentialLessPerSourceIp;
    const rate = rule!.Statement.RateBasedStatement;
    // a keyed partner's 250 requests a second over the five-minute window: a form-body partner at full rate passes
    expect(rate).toMatchObject({ AggregateKeyType: 'IP', Limit: 75_000, EvaluationWindowSec: 300 });
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

  it('limits every request per source address too, invented API keys included, under a higher limit', () => {
    const rule = rulesOf(dev).EveryRequestPerSourceIp;
    expect(rule!.Statement.RateBasedStatement).toEqual({
      AggregateKeyType: 'IP',
      Limit: 150_000,
      EvaluationWindowSec: 300,
    });
    expect(rule!.Action.Block.CustomResponse).toMatchObject({ ResponseCode: 429 });
  });

  it('takes its limits from the context, and refuses an every-request limit below the credential-less one', () => {
    const rules = rulesOf(synthesize({ wafRateLimitPerIp: '3000' }));
    expect(rules.CredentialLessPerSourceIp!.Statement.RateBasedStatement.Limit).toBe(3000);
    expect(rules.EveryRequestPerSourceIp!.Statement.RateBasedStatement.Limit).toBe(6000);
    expect(() => synthesize({ wafRateLimitPerIp: '3000', wafRequestsPerIp: '2000' })).toThrow(
      /wafRequestsPerIp=2000 contradicts wafRateLimitPerIp=3000/,
    );
  }, 60_000);
});

describe('production data', () => {
  const dataTypes = ['AWS::SQS::Queue', 'AWS::Events::EventBus', 'AWS::Events::Archive', 'AWS::DynamoDB::Table'];

  it('keeps the queues, the dead letters, the event bus and its archive when the stack goes; development does not', () => {
    for (const type of dataTypes) {
      expect(production.ofType(type).length, type).toBeGreaterThan(0);
      for (const [id, resource] of production.ofType(type)) expect(resource.DeletionPolicy, id).toBe('Retain');
      for (const [id, resource] of dev.ofType(type)) expect(resource.DeletionPolicy, id).toBe('Delete');
    }
    // the five work queues (resets, delivery events, webhook events and the two lanes of deliveries), the dead
    // letters of the first four (both lanes share one), the stream trigger's and the hourly rule's
    expect(production.ofType('AWS::SQS::Queue')).toHaveLength(11);
  });

  it('names nothing it keeps so that a redeploy collides with it: generated names, the bus suffixed by the stack id', () => {
    for (const type of ['AWS::SQS::Queue', 'AWS::Events::Archive'])
      for (const [id, resource] of production.ofType(type)) {
        expect(resource.Properties.QueueName, id).toBeUndefined();
        expect(resource.Properties.ArchiveName, id).toBeUndefined();
      }
    const [, bus] = production.ofType('AWS::Events::EventBus')[0]!;
    expect(JSON.stringify(bus.Properties.Name)).toContain('"delivery-limits-live-"');
    expect(JSON.stringify(bus.Properties.Name)).toContain('{"Ref":"AWS::StackId"}');
  });
});

describe('a development stage', () => {
  it("warms nothing and needs no quota above a new account's defaults, reserving or not", () => {
    expect(dev.ofType('AWS::DynamoDB::Table')[0]![1].Properties.WarmThroughput).toBeUndefined();
    for (const context of [{}, { reservedConcurrency: 'true', accountConcurrencyLimit: '1000' }]) {
      const props = stackProps(unbundledApp(context));
      const lines = quotaChecklist(props, plannedConcurrency(props)).filter((line) => line.defaultLimit !== undefined);
      expect(lines.map((line) => line.service)).toEqual(expect.arrayContaining(['DynamoDB', 'Lambda', 'API Gateway']));
      for (const line of lines) expect(line.needed, line.quota).toBeLessThanOrEqual(line.defaultLimit!);
    }
  });

  it('is warmed like production once its load settings ask for more than a new table serves', () => {
    const props = stackProps(unbundledApp({ deliveryEventsPerSecond: '200000', apiRequestsPerSecond: '1000' }));
    const [tableWrites] = quotaChecklist(props, plannedConcurrency(props));
    expect(tableWrites).toMatchObject({ needed: 113_200, defaultLimit: 40_000 });
  });
});

describe('the load the stack is sized for', () => {
  const tableOf = (synthesized: SynthesizedTemplate) => synthesized.ofType('AWS::DynamoDB::Table')[0]![1].Properties;
  const stageOf = (synthesized: SynthesizedTemplate) =>
    (synthesized.ofType('AWS::ApiGateway::Stage')[0]![1].Properties.MethodSettings as Record<string, unknown>[])[0];

  it('warms the production table for the documented 1× load: 200 batches/s of 561 units and 1,000 API writes', () => {
    expect(tableOf(production).WarmThroughput).toEqual({ WriteUnitsPerSecond: 113_200, ReadUnitsPerSecond: 12_000 });
    expect(tableOf(production).OnDemandThroughput).toBeUndefined();
  });

  it('warms it for the load given, and caps on-demand throughput where a cost guard is set', () => {
    const tenfold = synthesize({
      ...PRODUCTION_CONTEXT,
      deliveryEventsPerSecond: '2000000',
      deliveryMaxConcurrency: '100',
      apiRequestsPerSecond: '5000',
      maxWriteRequestUnits: '1200000',
    });
    // 2,000 batches of 561 units and 5,000 API writes; 3 read units a warm API read
    expect(tableOf(tenfold).WarmThroughput).toEqual({ WriteUnitsPerSecond: 1_127_000, ReadUnitsPerSecond: 15_000 });
    expect(tableOf(tenfold).OnDemandThroughput).toEqual({ MaxWriteRequestUnits: 1_200_000 });
    expect(stageOf(tenfold)).toMatchObject({ ThrottlingRateLimit: 10_000, ThrottlingBurstLimit: 20_000 });
  }, 180_000);

  it('sizes the stage throttle from the API load (twice it) unless set', () => {
    expect(stageOf(production)).toMatchObject({ ThrottlingRateLimit: 2000, ThrottlingBurstLimit: 4000 });
    expect(stageOf(synthesize({ stageRateLimit: '1500', stageBurstLimit: '1600' }))).toMatchObject({
      ThrottlingRateLimit: 1500,
      ThrottlingBurstLimit: 1600,
    });
  }, 180_000);

  it('refuses numbers that contradict each other, naming both', () => {
    expect(() => synthesize({ ...PRODUCTION_CONTEXT, stageRateLimit: '500' })).toThrow(
      /stageRateLimit=500 contradicts apiRequestsPerSecond=1000/,
    );
    expect(() => synthesize({ ...PRODUCTION_CONTEXT, maxWriteRequestUnits: '40000' })).toThrow(
      /maxWriteRequestUnits=40000 contradicts the warm throughput of 113200 write units/,
    );
    expect(() => synthesize({ ...PRODUCTION_CONTEXT, deliveryEventsPerSecond: '2000000' })).toThrow(
      /deliveryMaxConcurrency=10 contradicts deliveryEventsPerSecond=2000000: .* needs 100/,
    );
    expect(() => synthesize({ ...PRODUCTION_CONTEXT, apiRequestsPerSecond: 'lots' })).toThrow(/apiRequestsPerSecond/);
  }, 180_000);

  it('refuses a production runbook link that an operator cannot open from an alarm', () => {
    expect(() => synthesize({ ...PRODUCTION_CONTEXT, runbookUrl: 'docs/operations.md' })).toThrow(/runbookUrl/);
  }, 180_000);
});

/** The schema each function's Lambda entry parses its environment with. */
const SCHEMAS: Record<FunctionName, () => EnvironmentSchema> = {
  authorizer: authorizerEnvironment,
  auth: authEnvironment,
  'demand-limits': limitFamilyEnvironment,
  'supply-limits': limitFamilyEnvironment,
  'per-action': perActionEnvironment,
  webhooks: webhooksEnvironment,
  'delivery-recorder': deliveryRecorderEnvironment,
  'reset-flush': resetFlushEnvironment,
  'history-events': historyEventsEnvironment,
  'webhook-dispatcher': webhookDispatcherEnvironment,
};

/** A function's variables in the template; a value CloudFormation resolves (a queue's URL) stands as a placeholder. */
const deployedEnvironment = (synthesized: SynthesizedTemplate, name: FunctionName): Record<string, string> => {
  const [, fn] = synthesized
    .ofType('AWS::Lambda::Function')
    .find(([id]) => id.startsWith(`${name.replace(/-/g, '')}Function`))!;
  const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
  return Object.fromEntries(
    Object.entries(variables).map(([key, value]) => [key, typeof value === 'string' ? value : 'resolved-on-deploy']),
  );
};

describe("each function's environment", () => {
  it('satisfies the schema its Lambda entry parses at cold start, in development and in production', () => {
    for (const synthesized of [dev, production])
      for (const [name, schema] of Object.entries(SCHEMAS) as [FunctionName, () => EnvironmentSchema][])
        expect(() => parseEnvironment(schema(), deployedEnvironment(synthesized, name)), name).not.toThrow();
  });

  it('names no variable its schema does not declare, of those the stack sets or could set', () => {
    for (const [name, schema] of Object.entries(SCHEMAS) as [FunctionName, () => EnvironmentSchema][]) {
      const declared = Object.keys(schema().shape);
      const given = [...Object.keys(deployedEnvironment(production, name)), ...FUNCTION_ENVIRONMENT[name]];
      expect(
        given.filter((variable) => !declared.includes(variable)),
        name,
      ).toEqual([]);
    }
  });
});
