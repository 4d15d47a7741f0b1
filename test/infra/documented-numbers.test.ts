import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { reservationsAt } from '../../infra/cdk/app';
import { BASELINE_LOAD } from '../../infra/cdk/load-settings';
import { DELIVERY_QUEUE } from '../../infra/cdk/delivery-settings';
import { UNRESERVED_MINIMUM } from '../../infra/cdk/quota-checklist';
import { RETRY_DELAYS_SECONDS } from '../../shared/domain/webhooks/retry-schedule';
import { STREAM_RETENTION_SECONDS } from '../../shared/table/stream-trigger';
import { quotaChecklistOf } from '../../scripts/simulate/quotas';
import { TEMPLATE_RESOURCE_BUDGET } from './stack-templates';
import { PRODUCTION_CONTEXT, synthesizedTemplate, type Resource, type SynthesizedTemplate } from './template';

/**
 * Every number the guides state about the stack, held to the synthesized templates or to `npm run capacity`: a
 * change of the stack that leaves a guide behind fails here, naming the page and the sentence.
 */
const read = (page: string) => readFileSync(page, 'utf8').replace(/\s+/g, ' ');
const PAGES = {
  operations: read('docs/operations.md'),
  architecture: read('docs/architecture.md'),
  capacity: read('docs/capacity.md'),
};

/** The numbers each sentence matching `pattern` states (its groups), found at least once on the page. */
const stated = (page: keyof typeof PAGES, pattern: RegExp): number[][] => {
  const found = [...PAGES[page].matchAll(new RegExp(pattern.source, 'g'))].map((match) =>
    match.slice(1).map((value) => Number(value.replaceAll(',', ''))),
  );
  expect(found.length, `${page}: ${pattern.source}`).toBeGreaterThan(0);
  return found;
};

/** Each statement's numbers are `expected`. */
const expectStated = (page: keyof typeof PAGES, pattern: RegExp, expected: number[]) => {
  for (const numbers of stated(page, pattern)) expect(numbers, `${page}: ${pattern.source}`).toEqual(expected);
};

let dev: SynthesizedTemplate;
let production: SynthesizedTemplate;
beforeAll(() => {
  dev = synthesizedTemplate();
  production = synthesizedTemplate(PRODUCTION_CONTEXT);
}, 300_000);

const DAY = 86_400;
const queueOf = (template: SynthesizedTemplate, name: string): Resource =>
  template.ofType('AWS::SQS::Queue').find(([id]) => new RegExp(`^${name}[0-9A-F]{8}$`).test(id))![1];
const days = (queue: Resource) => Number(queue.Properties.MessageRetentionPeriod) / DAY;

describe('the account quotas the guide shows', () => {
  /** A table of the guide: the lines from its header to its last row. */
  const tableAfter = (marker: string) => {
    const text = readFileSync('docs/operations.md', 'utf8');
    const from = text.indexOf('| service | quota |', text.indexOf(marker));
    return text.slice(from, text.indexOf('\n\n', from)).trim();
  };

  it('are what npm run capacity prints, for the 1× load and for a development stage', () => {
    const text = readFileSync('docs/operations.md', 'utf8');
    const command = /npm run capacity -- ((?:-c \S+ ?)+)/.exec(text)![1]!.trim().split(' ');
    expect(tableAfter(command.join(' '))).toBe(quotaChecklistOf(command));
    expect(tableAfter("For a development stage's defaults")).toBe(quotaChecklistOf([]));
  });

  it('name the concurrency the stack reserves, function by function, and the quota it needs', () => {
    // the documented 1× load's: the stream consumer's and the dispatcher's are sized from the load
    const reserved = reservationsAt(BASELINE_LOAD, 10);
    const total = Object.values(reserved).reduce((sum, count) => sum + count, 0);
    const [listed] = /with the defaults at the 1× load \(([^)]*\([^)]*\)[^)]*)\)/.exec(PAGES.operations)!.slice(1);
    const named = Object.fromEntries(
      [...listed!.matchAll(/([\w-]+) (?:`deliveryMaxConcurrency` \()?(\d+)/g)].map(([, name, count]) => [
        name,
        Number(count),
      ]),
    );
    expect(named).toEqual(reserved);
    expectStated('operations', /it reserves (\d+) concurrent executions/, [total]);
    expectStated('operations', /Lambda keeps (\d+) of the account's quota unreserved/, [UNRESERVED_MINIMUM]);
    expectStated('operations', /a quota of at least \*\*([\d,]+)\*\*/, [total + UNRESERVED_MINIMUM]);
    expectStated('operations', /reserves concurrency per function \((\d+) in all at the 1× load\)/, [total]);
    expectStated('capacity', /reserved concurrency, when turned on, takes (\d+) at 1×/, [total]);
    // what npm run capacity prints for the 1× load
    const oneX = ['-c', `deliveryEventsPerSecond=${BASELINE_LOAD.deliveryEventsPerSecond}`];
    expect(quotaChecklistOf(oneX)).toContain(
      `| Lambda | Concurrent executions | 1,000 | ${total + UNRESERVED_MINIMUM} |`,
    );
  });
});

describe('the stacks the guides describe', () => {
  it('keep each template within the resources the guides name', () => {
    expectStated('operations', /Each template now stays at (\d+) resources or fewer/, [TEMPLATE_RESOURCE_BUDGET]);
    expectStated('architecture', /Each template stays at (\d+) resources or fewer/, [TEMPLATE_RESOURCE_BUDGET]);
    for (const [name, template] of Object.entries(production.templates))
      expect(template.resources, name).toBeLessThanOrEqual(TEMPLATE_RESOURCE_BUDGET);
  });

  it('keep messages as long as the guides say, in work queues and in dead-letter queues', () => {
    const work = days(queueOf(production, 'DeliveryEvents'));
    const deadLetters = days(queueOf(production, 'DeliveryEventsDlq'));
    for (const name of ['QueuedResets', 'WebhookEvents', 'WebhookDeliveries'])
      expect(days(queueOf(production, name)), name).toBe(work);
    for (const name of ['QueuedResetsDlq', 'WebhookEventsDlq', 'WebhookDeliveriesDlq', 'HistoryEventsDlq'])
      expect(days(queueOf(production, name)), name).toBe(deadLetters);
    expectStated(
      'operations',
      /A dead-letter queue keeps a message (\d+) days \(SQS's most\), its source queue (\d+)/,
      [deadLetters, work],
    );
    expectStated('operations', /a work queue keeps a message (\d+) days, a dead-letter queue (\d+)/, [
      work,
      deadLetters,
    ]);
    expectStated('operations', /undelivered events kept (\d+) days, dead letters (\d+)/, [work, deadLetters]);
    expectStated('architecture', /a message kept (\d+) days in a work queue and (\d+) in a dead-letter queue/, [
      work,
      deadLetters,
    ]);
    // a webhook delivery dead-lettered after its last attempt
    const schedule = RETRY_DELAYS_SECONDS.reduce((sum, delay) => sum + delay, 0);
    const left = deadLetters * DAY - schedule;
    const [hours, minutes] = [Math.floor(schedule / 3600), Math.floor((schedule % 3600) / 60)];
    expectStated(
      'operations',
      /after its last attempt \((\d+) h (\d+) min after the first\) has (\d+) days and (\d+) hours left/,
      [hours, minutes, Math.floor(left / DAY), Math.floor((left % DAY) / 3600)],
    );
    expectStated(
      'operations',
      /kept (\d+) days from when its delivery was first queued: (\d+) days and (\d+) hours after/,
      [deadLetters, Math.floor(left / DAY), Math.floor((left % DAY) / 3600)],
    );
  });

  it('give the stream trigger the retries and record age the guides say', () => {
    const [, mapping] = dev
      .ofType('AWS::Lambda::EventSourceMapping')
      .find(([, candidate]) => JSON.stringify(candidate.Properties.EventSourceArn).includes('StreamArn'))!;
    const { MaximumRetryAttempts: retries, MaximumRecordAgeInSeconds: age } = mapping.Properties as {
      MaximumRetryAttempts: number;
      MaximumRecordAgeInSeconds: number;
    };
    const ageHours = age / 3600;
    expectStated('architecture', /at most (\d+) retries, a (\d+)-hour record age/, [retries, ageHours]);
    expectStated('operations', /retried (\d+) times at most, for (\d+) hours at most/, [retries, ageHours]);
    expectStated('operations', /\((\d+) retries or (\d+) hours\)/, [retries, ageHours]);
    expectStated('operations', /(\d+) hours before the stream drops the records/, [
      STREAM_RETENTION_SECONDS / 3600 - ageHours,
    ]);
    expectStated('operations', /holds those records for (\d+) hours after they were given up/, [
      STREAM_RETENTION_SECONDS / 3600 - ageHours,
    ]);
  });

  it('give the webhook dispatcher and the delivery queue the batches, containers and timeouts the guide says', () => {
    const dispatcher = production
      .ofType('AWS::Lambda::Function')
      .find(([id]) => id.startsWith('webhookdispatcherFunction'))![1];
    const [events, fast, slow] = production
      .ofType('AWS::Lambda::EventSourceMapping')
      .filter(([, candidate]) => JSON.stringify(candidate.Properties.FunctionName).includes('webhookdispatcher'))
      .map(
        ([, candidate]) => candidate.Properties as { BatchSize: number; ScalingConfig: { MaximumConcurrency: number } },
      );
    const containers = [events!, fast!, slow!].map((mapping) => mapping.ScalingConfig.MaximumConcurrency);
    expectStated(
      'operations',
      /takes batches of (\d+) from each queue \(of 100, gathered for a second, past 1,000 containers\), (\d+) seconds a batch/,
      [events!.BatchSize, Number(dispatcher.Properties.Timeout)],
    );
    expectStated(
      'operations',
      /at the 1× load (\d+) fanning out events, (\d+) in the fast lane and (\d+) in the slow lane \((\d+) reserved when `reservedConcurrency` is on\); every queue hides a received message (\d+) seconds/,
      [
        ...containers,
        reservationsAt(BASELINE_LOAD, 10)['webhook-dispatcher'],
        Number(queueOf(production, 'WebhookDeliveries').Properties.VisibilityTimeout),
      ],
    );
    expect(containers.reduce((sum, count) => sum + count, 0)).toBe(
      reservationsAt(BASELINE_LOAD, 10)['webhook-dispatcher'],
    );
    for (const name of ['WebhookEvents', 'WebhookSlowLane'])
      expect(Number(queueOf(production, name).Properties.VisibilityTimeout)).toBe(
        Number(queueOf(production, 'WebhookDeliveries').Properties.VisibilityTimeout),
      );
    expectStated('operations', /at the 1× load it fans out with (\d+) containers at most/, [containers[0]!]);
    expectStated('operations', /visibility timeout \((\d+) s\)/, [
      Number(queueOf(dev, 'DeliveryEvents').Properties.VisibilityTimeout),
    ]);
  });

  it('throttle, compress and cache the API reference as the guide says', () => {
    const settings = production.ofType('AWS::ApiGateway::Stage')[0]![1].Properties.MethodSettings as Record<
      string,
      number | string | boolean
    >[];
    const reference = settings.filter((setting) => setting.ResourcePath !== '/*');
    const [first] = reference;
    expectStated('operations', /\*\*on its own\*\*, at (\d+) requests a second, burst (\d+)/, [
      Number(first!.ThrottlingRateLimit),
      Number(first!.ThrottlingBurstLimit),
    ]);
    expectStated('operations', /can never take more than (\d+) requests a second/, [
      reference.reduce((sum, setting) => sum + Number(setting.ThrottlingRateLimit), 0),
    ]);
    const compressed = production.ofType('AWS::ApiGateway::RestApi')[0]![1].Properties.MinimumCompressionSize;
    expectStated('operations', /compresses\*\* every answer over (\d+) KiB/, [Number(compressed) / 1024]);
    expectStated('operations', /\*\*caches\*\* the reference's answers in production, for (\d+) seconds/, [
      Number(first!.CacheTtlInSeconds),
    ]);
    expectStated('operations', /The cache is the smallest API Gateway offers \(([\d.]+) GB\)/, [
      Number(production.ofType('AWS::ApiGateway::Stage')[0]![1].Properties.CacheClusterSize),
    ]);
  });

  it('keep logs as long as the guides say, in production and elsewhere', () => {
    const retention = (template: SynthesizedTemplate) => [
      ...new Set(template.ofType('AWS::Logs::LogGroup').map(([, group]) => Number(group.Properties.RetentionInDays))),
    ];
    expect(retention(production)).toEqual([180]);
    expect(retention(dev)).toEqual([30]);
    for (const sentence of [
      'logs kept six months (else one)',
      'logs are kept six months',
      '(six months in production, a month elsewhere)',
    ])
      expect(PAGES.operations, sentence).toContain(sentence);
  });

  it('page after the waits the runbook names', () => {
    const threshold = (id: string) =>
      Number(
        production.ofType('AWS::CloudWatch::Alarm').find(([logicalId]) => logicalId.startsWith(id))![1].Properties
          .Threshold,
      );
    expectStated('operations', /the oldest delivery event has waited more than (\d+) minutes/, [
      threshold('DeliveryEventsAge') / 60,
    ]);
    expectStated('operations', /a reset has waited more than (\d+) minutes/, [threshold('QueuedResetsAge') / 60]);
    expectStated('operations', /has waited in `WebhookEvents` more than (\d+) minutes/, [
      threshold('WebhookEventsAge') / 60,
    ]);
    expectStated('operations', /`history-events` is more than (\d+) minutes behind the table's stream/, [
      threshold('HistoryEventsAge') / 60_000,
    ]);
    expectStated('architecture', /a reset older than (\d+) minutes/, [threshold('QueuedResetsAge') / 60]);
  });

  it('carry the defaults the settings table names', () => {
    const plan = (suffix: string) =>
      dev
        .ofType('AWS::ApiGateway::UsagePlan')
        .find(([, candidate]) => String(candidate.Properties.UsagePlanName).endsWith(suffix))![1].Properties as {
        Throttle: { RateLimit: number; BurstLimit: number };
        Quota?: { Limit: number };
      };
    const defaults = plan('-default');
    expectStated('operations', /\| `rateLimit`, `burstLimit`, `quotaPerDay` \| ([\d,]+), ([\d,]+), ([\d,]+) \|/, [
      defaults.Throttle.RateLimit,
      defaults.Throttle.BurstLimit,
      defaults.Quota!.Limit,
    ]);
    const anonymous = plan('-anonymous');
    expectStated('operations', /the partner plan's \(([\d,]+), ([\d,]+)\) \| the anonymous plan's throttle/, [
      anonymous.Throttle.RateLimit,
      anonymous.Throttle.BurstLimit,
    ]);
    const rules = Object.fromEntries(
      (
        dev.ofType('AWS::WAFv2::WebACL')[0]![1].Properties.Rules as {
          Name: string;
          Statement: { RateBasedStatement: { Limit: number } };
        }[]
      ).map((rule) => [rule.Name, rule.Statement.RateBasedStatement.Limit]),
    );
    expectStated('operations', /\| `wafRateLimitPerIp` \| the partner plan's rate × \d+ \(([\d,]+)\) \|/, [
      rules.CredentialLessPerSourceIp!,
    ]);
    expectStated('operations', /\| `wafRequestsPerIp` \| 2 × `wafRateLimitPerIp` \(([\d,]+)\) \|/, [
      rules.EveryRequestPerSourceIp!,
    ]);
    const recorder = dev
      .ofType('AWS::Lambda::EventSourceMapping')
      .find(([, mapping]) => JSON.stringify(mapping.Properties.FunctionName).includes('deliveryrecorder'))![1]
      .Properties as { ScalingConfig: { MaximumConcurrency: number } };
    expectStated('operations', /\| `deliveryMaxConcurrency` \| (\d+) \|/, [recorder.ScalingConfig.MaximumConcurrency]);
    const stage = production.ofType('AWS::ApiGateway::Stage')[0]![1].Properties.MethodSettings as {
      ResourcePath: string;
      ThrottlingRateLimit: number;
    }[];
    const stageRate = stage.find((setting) => setting.ResourcePath === '/*')!.ThrottlingRateLimit;
    expectStated('operations', /\| `apiRequestsPerSecond` \| ([\d,]+) \|/, [stageRate / 2]);
    // the delivery load's batches a second, as npm run capacity prints them for production and for development
    const [production1x, development] = [
      quotaChecklistOf(['-c', 'deliveryEventsPerSecond=200000', '-c', 'apiRequestsPerSecond=1000']),
      quotaChecklistOf([]),
    ].map((table) => Number(/(\d+) delivery batches\/s × (\d+) units/.exec(table)![1]));
    const [eventsPerMessage, writeUnits] = stated(
      'operations',
      /\| ([\d,]+) in production \(([\d,]+) in any other stage\), (\d+), (\d+) \|/,
    ).flatMap(([inProduction, elsewhere, perMessage, units]) => {
      const eventsPerBatch = perMessage! * DELIVERY_QUEUE.batchSize;
      expect([inProduction, elsewhere]).toEqual([production1x! * eventsPerBatch, development! * eventsPerBatch]);
      return [perMessage, units];
    });
    expect(quotaChecklistOf([])).toContain(`× ${writeUnits} units`);
    expect(quotaChecklistOf([])).toContain(`${eventsPerMessage} events a message`);
  });

  it('say the bundles carry no source maps unless asked, as the stack deploys them', () => {
    for (const [id, fn] of dev.ofType('AWS::Lambda::Function'))
      expect(
        (fn.Properties.Environment as { Variables?: Record<string, string> } | undefined)?.Variables?.NODE_OPTIONS,
        id,
      ).toBeUndefined();
    expect(PAGES.architecture).toContain('without source maps unless `-c sourceMaps=true`');
    expect(PAGES.operations).toContain('| `sourceMaps` | `false` |');
  });
});
