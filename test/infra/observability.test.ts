import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FUNCTION_ENTRIES } from '../../infra/cdk/bundling';
import { RUNBOOK_SECTIONS } from '../../infra/cdk/runbook-sections';
import { TABLE_DEFINITION } from '../../shared/table/table-definition';
import { routeName } from '../../shared/api/route-name';
import { ROUTES } from '../../shared/api/route-table';
import { PRODUCTION_CONTEXT, synthesizedTemplate, type SynthesizedTemplate } from './template';

let synthesized: SynthesizedTemplate;
let production: SynthesizedTemplate;
beforeAll(() => {
  synthesized = synthesizedTemplate();
  production = synthesizedTemplate(PRODUCTION_CONTEXT);
}, 300_000);

afterAll(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** Every TypeScript source file the functions are built from. */
const sourceFiles = (directory: string): string[] =>
  readdirSync(directory).flatMap((entry) => {
    const path = join(directory, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });

/** The names of the metrics the code emits: keys of `emitMetrics({...})`, names given to `addMetric('…')`. */
const emittedMetricNames = (): Set<string> => {
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const called = ts.isIdentifier(callee)
        ? callee.text
        : ts.isPropertyAccessExpression(callee)
          ? callee.name.text
          : '';
      const [first] = node.arguments;
      if (called === 'emitMetrics' && first && ts.isObjectLiteralExpression(first))
        for (const property of first.properties)
          if (property.name && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)))
            names.add(property.name.text);
      if (called === 'addMetric' && first && ts.isStringLiteral(first)) names.add(first.text);
    }
    ts.forEachChild(node, visit);
  };
  for (const file of [...sourceFiles('functions'), ...sourceFiles('shared')])
    visit(ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true));
  return names;
};

interface EmittedShape {
  namespace: string;
  dimensions: Record<string, string>;
}

/**
 * Namespace and dimensions of a metric as `shared/observability/metrics.ts` writes it, with a deployed function's
 * environment.
 */
const emittedShape = async (environment: Record<string, string>): Promise<EmittedShape> => {
  vi.resetModules();
  vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'probe');
  vi.stubEnv('LOG_LEVEL', 'info');
  vi.stubEnv('METRICS_NAMESPACE', environment.METRICS_NAMESPACE);
  vi.stubEnv('STAGE', environment.STAGE);
  let written = '';
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
    written += String(chunk);
    return true;
  });
  const { emitMetrics } = await import('../../shared/observability/metrics');
  emitMetrics({ Probe: 1 }, new Date());
  write.mockRestore();
  const line = JSON.parse(written.trim()) as Record<string, unknown> & {
    _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][] }[] };
  };
  const [directive] = line._aws.CloudWatchMetrics;
  return {
    namespace: directive!.Namespace,
    dimensions: Object.fromEntries(directive!.Dimensions[0]!.map((name) => [name, String(line[name])])),
  };
};

const environmentOf = (functionId: string): Record<string, string> => {
  const [, fn] = synthesized.ofType('AWS::Lambda::Function').find(([id]) => id.startsWith(`${functionId}Function`))!;
  return (fn.Properties.Environment as { Variables: Record<string, string> }).Variables;
};

/** A dashboard body with its references as `<Ref:id>` text, parsed. */
const dashboardWidgets = () => {
  const [, dashboard] = synthesized.ofType('AWS::CloudWatch::Dashboard')[0]!;
  const parts = (dashboard.Properties.DashboardBody as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
  const text = parts
    .map((part) =>
      typeof part === 'string'
        ? part
        : `<Ref:${(part as { Ref?: string }).Ref ?? (part as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0]}>`,
    )
    .join('');
  return (JSON.parse(text) as { widgets: { type: string; properties: { title: string; metrics?: unknown[][] } }[] })
    .widgets;
};

/** A graph's metric: namespace, name, dimensions. */
const graphMetric = (row: unknown[]) => {
  const values = row.filter((value) => typeof value === 'string') as string[];
  const [namespace, metricName, ...pairs] = values;
  const dimensions: Record<string, string> = {};
  for (let index = 0; index + 1 < pairs.length; index += 2) dimensions[pairs[index]!] = pairs[index + 1]!;
  return { namespace: namespace!, metricName: metricName!, dimensions };
};

interface AlarmMetric {
  Namespace: string;
  MetricName: string;
  Dimensions?: { Name: string; Value: unknown }[];
}

/** Every metric an alarm reads, whether it watches one metric or an expression over several. */
const alarmMetrics = (properties: Record<string, unknown>): AlarmMetric[] =>
  properties.MetricName
    ? [properties as unknown as AlarmMetric]
    : (properties.Metrics as { MetricStat?: { Metric: AlarmMetric } }[]).flatMap((query) =>
        query.MetricStat ? [query.MetricStat.Metric] : [],
      );

/** GitHub's anchor of each heading of a Markdown page. */
const anchorsOf = (markdown: string): Set<string> =>
  new Set(
    [...markdown.matchAll(/^#+ (.+)$/gm)].map(([, heading]) =>
      heading!
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );

describe('the alarm topic', () => {
  it('lets CloudWatch of this account publish, and only over SSL', () => {
    const [, policy] = synthesized.ofType('AWS::SNS::TopicPolicy')[0]!;
    const statements = (policy.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement;
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Action: 'sns:Publish',
        Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
      }),
    );
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    const [topicId] = synthesized.ofType('AWS::SNS::Topic')[0]!;
    expect(policy.Properties.Topics).toEqual([{ Ref: topicId }]);
  });

  it('receives every alarm, as it fires and as it clears', () => {
    const [topicId] = production.ofType('AWS::SNS::Topic')[0]!;
    const alarms = production.ofType('AWS::CloudWatch::Alarm');
    expect(alarms.length).toBeGreaterThan(20);
    for (const [id, alarm] of alarms) {
      expect(alarm.Properties.AlarmActions, id).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties.OKActions, id).toEqual([{ Ref: topicId }]);
    }
  });
});

describe('alarms', () => {
  it('have stable names, each named in the runbook, and in production link their section at an absolute address', () => {
    const runbook = readFileSync('docs/operations.md', 'utf8');
    const anchors = anchorsOf(runbook);
    const alarms = production.ofType('AWS::CloudWatch::Alarm');
    const names = alarms.map(([, alarm]) => String(alarm.Properties.AlarmName));
    expect(new Set(names).size).toBe(alarms.length);
    for (const [id, alarm] of alarms) {
      const name = /^delivery-limits-live-([\w-]+)$/.exec(String(alarm.Properties.AlarmName));
      expect(name, id).not.toBeNull();
      expect(runbook, id).toContain(`\`${name![1]}\``);
      const link = /Runbook: (https:\/\/\S+)#([\w-]+)$/.exec(String(alarm.Properties.AlarmDescription));
      expect(link?.[1], id).toBe(PRODUCTION_CONTEXT.runbookUrl);
      expect(anchors, id).toContain(link![2]);
    }
  });

  it('watch every route of the route table on its own failures, whatever the API-wide rate', () => {
    const watched = new Map(
      production
        .ofType('AWS::CloudWatch::Alarm')
        .filter(([, alarm]) => alarm.Properties.MetricName === 'OperationFailures')
        .map(([, alarm]) => {
          const dimensions = alarm.Properties.Dimensions as { Name: string; Value: string }[];
          return [dimensions.find(({ Name }) => Name === 'operation')!.Value, alarm.Properties];
        }),
    );
    expect([...watched.keys()].sort()).toEqual(ROUTES.map(routeName).sort());
    expect(watched.size).toBe(58);
    for (const [operation, alarm] of watched)
      // failures in 3 of the last six 5-minute periods: repeatedly, however few the calls
      expect(alarm, operation).toMatchObject({
        Statistic: 'Sum',
        Period: 300,
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 6,
        DatapointsToAlarm: 3,
        TreatMissingData: 'notBreaching',
      });
  });

  it('each link a section of the runbook that exists', () => {
    const anchors = anchorsOf(readFileSync('docs/operations.md', 'utf8'));
    for (const section of RUNBOOK_SECTIONS) expect(anchors, section).toContain(section);
    for (const [id, alarm] of synthesized.ofType('AWS::CloudWatch::Alarm')) {
      const link = /Runbook: docs\/operations\.md#([\w-]+)$/.exec(String(alarm.Properties.AlarmDescription));
      expect(link, id).not.toBeNull();
      expect(anchors, id).toContain(link![1]);
    }
  });

  it('read rates only over a minimum count, so one failure in a quiet period pages no one', () => {
    const rates = synthesized
      .ofType('AWS::CloudWatch::Alarm')
      .filter(([id]) =>
        /^(Api5xxRate|(authorizer|auth|demandlimits|supplylimits|peraction|webhooks|reference)Errors|(?!Table)\w+Throttles)/.test(
          id,
        ),
      );
    // the API's 5xx, each API function's errors (the reference's too), every function's throttles
    expect(rates.length).toBe(1 + 7 + Object.keys(FUNCTION_ENTRIES).length + 1);
    for (const [id, alarm] of rates) {
      const [expression] = (alarm.Properties.Metrics as { Expression?: string }[]).filter((query) => query.Expression);
      expect(expression!.Expression, id).toMatch(/^IF\(total >= (100|20), 100 \* failures \/ total, 0\)$/);
      expect(alarm.Properties, id).toMatchObject({ Threshold: 1, EvaluationPeriods: 3, DatapointsToAlarm: 2 });
    }
    const [, api] = rates.find(([id]) => id.startsWith('Api5xxRate'))!;
    expect((api.Properties.Metrics as { Expression?: string }[])[0]!.Expression).toContain('total >= 100');
  });

  it('watch each dead-letter queue for new arrivals, sent or redriven, not for messages still waiting', () => {
    // the four redrive targets, the stream trigger's on-failure queue and the hourly rule's dead letters
    const queues = synthesized
      .ofType('AWS::SQS::Queue')
      .map(([id]) => id)
      .filter((id) => /Dlq[0-9A-F]{8}$/.test(id));
    expect(queues).toHaveLength(6);
    for (const queueId of queues) {
      const watching = synthesized
        .ofType('AWS::CloudWatch::Alarm')
        .filter(([, alarm]) => JSON.stringify(alarm.Properties).includes(`"${queueId}"`));
      expect(watching, queueId).toHaveLength(1);
      const [, alarm] = watching[0]!;
      const queries = alarm.Properties.Metrics as {
        Id: string;
        Expression?: string;
        MetricStat?: { Metric: AlarmMetric };
      }[];
      expect(queries.find((query) => query.Expression)!.Expression).toBe('MAX([sent, DIFF(FILL(visible, 0))])');
      expect(
        Object.fromEntries(
          queries.filter((query) => query.MetricStat).map((query) => [query.Id, query.MetricStat!.Metric.MetricName]),
        ),
      ).toEqual({
        sent: 'NumberOfMessagesSent',
        visible: 'ApproximateNumberOfMessagesVisible',
      });
      // two periods: a rise needs the period before it; the alarm clears as soon as nothing new comes
      expect(alarm.Properties).toMatchObject({ Threshold: 1, EvaluationPeriods: 2, DatapointsToAlarm: 1 });
    }
  });

  it("read the service's metrics in the namespace and with the dimensions the code writes", async () => {
    const shape = await emittedShape(environmentOf('deliveryrecorder'));
    const emitted = emittedMetricNames();
    // emitted by the auth and recorder changes that come with them: remove a name once its code emits it
    const watched = synthesized
      .ofType('AWS::CloudWatch::Alarm')
      .flatMap(([id, alarm]) => alarmMetrics(alarm.Properties).map((metric) => ({ id, metric })))
      .filter(({ metric }) => !metric.Namespace.startsWith('AWS/'));
    expect([...new Set(watched.map(({ metric }) => metric.MetricName))].sort()).toEqual(
      [
        'AuthorizerFailures',
        'ResetsFailed',
        'PasswordResetMailFailures',
        'InvalidCounterWrites',
        'LimitReachedPublishFailures',
        'OperationFailures',
        // counter writes the stream trigger must have passed on: HistoryEventsAge
        'NearCapWrites',
      ].sort(),
    );
    for (const { id, metric } of watched) {
      expect(emitted, id).toContain(metric.MetricName);
      expect(metric.Namespace, id).toBe(shape.namespace);
      const dimensions = Object.fromEntries(metric.Dimensions!.map(({ Name, Value }) => [Name, Value]));
      // the family pipeline adds the route (test/unit/pipeline/operation-failures.test.ts)
      const route = metric.MetricName === 'OperationFailures' ? { operation: dimensions.operation } : {};
      expect(dimensions.operation === undefined, id).toBe(metric.MetricName !== 'OperationFailures');
      expect(dimensions, id).toEqual({ ...shape.dimensions, ...route });
    }
  });
});

describe("the table's throughput", () => {
  it('pages on throttled writes and on throttled reads, of the table and its indexes, in production as anywhere', () => {
    const [tableId, table] = production.ofType('AWS::DynamoDB::Table')[0]!;
    for (const [id, metricName] of [
      ['TableWriteThrottles', 'WriteThrottleEvents'],
      ['TableReadThrottles', 'ReadThrottleEvents'],
    ]) {
      const [, alarm] = production.ofType('AWS::CloudWatch::Alarm').find(([logicalId]) => logicalId.startsWith(id!))!;
      const watched = alarmMetrics(alarm.Properties);
      expect(
        watched.map((metric) => [metric.Namespace, metric.MetricName]),
        id,
      ).toEqual([
        ['AWS/DynamoDB', metricName],
        ['AWS/DynamoDB', metricName],
        ['AWS/DynamoDB', metricName],
      ]);
      const dimensions = watched.map((metric) => Object.fromEntries(metric.Dimensions!.map((d) => [d.Name, d.Value])));
      expect(dimensions, id).toEqual([
        { TableName: { Ref: tableId } },
        { TableName: { Ref: tableId }, GlobalSecondaryIndexName: TABLE_DEFINITION.byParentIndex.indexName },
        { TableName: { Ref: tableId }, GlobalSecondaryIndexName: TABLE_DEFINITION.byUpdateShareIndex.indexName },
      ]);
      expect(alarm.Properties.AlarmDescription, id).toContain(`#${id!.toLowerCase()}`);
    }
    expect(table.Properties).toMatchObject({
      ContributorInsightsSpecification: { Enabled: true, Mode: 'THROTTLED_KEYS' },
      GlobalSecondaryIndexes: [
        expect.objectContaining({ ContributorInsightsSpecification: { Enabled: true, Mode: 'THROTTLED_KEYS' } }),
        expect.objectContaining({ ContributorInsightsSpecification: { Enabled: true, Mode: 'THROTTLED_KEYS' } }),
      ],
    });
  });
});

describe('the dashboard', () => {
  it("graphs only metrics that are written: the service's as its code writes them, AWS's of this stack's resources", async () => {
    const shape = await emittedShape(environmentOf('deliveryrecorder'));
    const emitted = emittedMetricNames();
    const graphs = dashboardWidgets().filter((widget) => widget.type === 'metric');
    expect(graphs.length).toBeGreaterThan(4);
    const refs = new Set(Object.keys(synthesized.resources));
    const [, api] = synthesized.ofType('AWS::ApiGateway::RestApi')[0]!;
    let service = 0;
    for (const graph of graphs)
      for (const row of graph.properties.metrics!) {
        const metric = graphMetric(row);
        const where = `${graph.properties.title}: ${metric.metricName}`;
        if (metric.namespace.startsWith('AWS/')) {
          for (const value of Object.values(metric.dimensions)) {
            const ref = /^<Ref:(\w+)>$/.exec(value)?.[1];
            if (ref) expect(refs, where).toContain(ref);
            else expect(value, where).toBe(api.Properties.Name);
          }
          continue;
        }
        service++;
        expect(emitted, where).toContain(metric.metricName);
        expect(metric.namespace, where).toBe(shape.namespace);
        expect(metric.dimensions, where).toEqual(shape.dimensions);
      }
    expect(service).toBeGreaterThan(5);
  });

  it('emits each metric under the namespace and stage every emitting function is given', () => {
    for (const id of ['authorizer', 'deliveryrecorder', 'resetflush', 'demandlimits'])
      expect(environmentOf(id), id).toMatchObject({ METRICS_NAMESPACE: 'DeliveryLimits/dev', STAGE: 'dev' });
  });
});
