import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { buildApp } from '../../infra/cdk/app';
import { DeliveryLimitsDataStack } from '../../infra/cdk/data-stack';
import { DeliveryLimitsStack } from '../../infra/cdk/delivery-limits-stack';
import { TEMPLATE_CACHE_DIR, templateCacheFile } from '../support/template-cache';
import { mergedTemplates, type TemplateSummary } from './stack-templates';

export type Resource = {
  Type: string;
  Properties: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
};

/** cdk.json's context (feature flags included), as `cdk synth` gives it to the app. */
const CDK_CONTEXT = (JSON.parse(readFileSync('cdk.json', 'utf8')) as { context: Record<string, unknown> }).context;

/** What a synthesis does besides building the template. */
export interface SynthesisOptions {
  /**
   * The CDK's built-in CloudFormation validation of the template (on by default, as `cdk synth` does it): its
   * engine takes about 9 s of processor time to start in each process, and a second or two for each template.
   */
  validate?: boolean;
}

/** An app that skips esbuild bundling: the template is what is under test here. */
export const unbundledApp = (context: Record<string, unknown> = {}, { validate = true }: SynthesisOptions = {}) =>
  new App({
    context: { ...CDK_CONTEXT, ...context, 'aws:cdk:bundling-stacks': [] },
    builtinCloudFormationValidation: validate,
  });

/**
 * The settings of a production deploy (step 4 of docs/operations.md), with addresses of a domain of their own: a
 * production synth refuses the names reserved for examples (`.test`, `example.org`), as a placeholder.
 */
export const PRODUCTION_DOMAIN = 'limits.adnet-ops.net';
export const PRODUCTION_CONTEXT = {
  production: 'true',
  stage: 'live',
  alarmEmail: `oncall@${PRODUCTION_DOMAIN}`,
  mailFrom: `no-reply@${PRODUCTION_DOMAIN}`,
  sesIdentity: PRODUCTION_DOMAIN,
  appBaseUrl: `https://ui.${PRODUCTION_DOMAIN}`,
  corsOrigins: `https://ui.${PRODUCTION_DOMAIN}`,
  runbookUrl: `https://git.${PRODUCTION_DOMAIN}/service/blob/main/docs/operations.md`,
};

/**
 * A stage's synthesized templates and their resources: all a test of the templates reads. `template` and `resources`
 * are the data stack's, the service stack's and its nested stacks' as one (`stack-templates.ts`), references between
 * them resolved; `templates` describes each template on its own.
 */
export interface SynthesizedTemplate {
  template: Template;
  resources: Record<string, Resource>;
  /** Resources of one type, with their logical ids. */
  ofType: (type: string) => [string, Resource][];
  /** Each template by its stack's name (a nested one's after its parent's: `DeliveryLimits-dev/Gateway`). */
  templates: Record<string, TemplateSummary>;
}

/** A synthesis with the app and stacks it came from, for a test of the constructs themselves. */
export interface Synthesized extends SynthesizedTemplate {
  app: App;
  stack: DeliveryLimitsStack;
  data: DeliveryLimitsDataStack;
}

/** What the run's cache holds of a synthesis: the merged template, with each template's summary beside it. */
type CachedTemplate = Record<string, unknown> & { Templates: Record<string, TemplateSummary> };

const ofTemplate = ({ Templates, ...json }: CachedTemplate): SynthesizedTemplate => {
  const template = Template.fromJSON(json);
  const resources = json.Resources as Record<string, Resource>;
  const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
  return { template, resources, ofType, templates: Templates };
};

/** The templates of an app already synthesized (`buildApp(…).synth()`): no synthesis of their own. */
export const templatesOf = (app: App): SynthesizedTemplate => {
  const { merged, summaries } = mergedTemplates(app);
  return ofTemplate({ ...merged, Templates: summaries });
};

/**
 * The stack built for `context`, without the CloudFormation validation: its engine takes seconds of processor time to
 * start in each process, and stack.test.ts's cdk-nag tests validate the development and production contexts, and
 * every setting of the operations guide at once.
 */
export const synthesize = (context: Record<string, unknown> = {}): Synthesized => {
  const app = buildApp(unbundledApp(context, { validate: false }));
  const stack = app.node.children.find((child) => child instanceof DeliveryLimitsStack) as DeliveryLimitsStack;
  const data = app.node.children.find((child) => child instanceof DeliveryLimitsDataStack) as DeliveryLimitsDataStack;
  return { app, stack, data, ...templatesOf(app) };
};

/**
 * The template `synthesize(context)` makes, synthesized at most once per run and context: a synthesis of this
 * stack takes seconds of CPU, and the test files that only read the template share it. Without the global
 * setup's folder, it is synthesized here.
 */
export const synthesizedTemplate = (context: Record<string, unknown> = {}): SynthesizedTemplate => {
  const directory = process.env[TEMPLATE_CACHE_DIR];
  if (!directory) return synthesize(context);
  const file = templateCacheFile(directory, context);
  if (existsSync(file)) return ofTemplate(JSON.parse(readFileSync(file, 'utf8')) as CachedTemplate);
  const synthesized = synthesize(context);
  // written whole, then renamed: a file running beside this one reads the whole template or none
  const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(partial, JSON.stringify({ ...synthesized.template.toJSON(), Templates: synthesized.templates }));
  renameSync(partial, file);
  return synthesized;
};

/** The logical id of a function's role, by the function's name (`delivery-recorder`). */
export const roleOf = (synthesized: SynthesizedTemplate, functionName: string): string => {
  const [, fn] = synthesized
    .ofType('AWS::Lambda::Function')
    .find(([id]) => id.startsWith(`${functionName.replace(/-/g, '')}Function`))!;
  return (fn.Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0]!;
};

export interface Statement {
  Sid?: string;
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Principal?: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

/** Every statement of the policies attached to a role. */
export const statementsOf = (synthesized: SynthesizedTemplate, role: string): Statement[] =>
  synthesized
    .ofType('AWS::IAM::Policy')
    .filter(([, policy]) => (policy.Properties.Roles as { Ref: string }[]).some((ref) => ref.Ref === role))
    .flatMap(([, policy]) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement);

export const actionsOf = (statement: Statement): string[] => [statement.Action].flat();

/** The SQS actions a function's role holds on each queue, by the queue's logical id, sorted. */
export const queueActionsOf = (synthesized: SynthesizedTemplate, functionName: string): Record<string, string[]> => {
  const byQueue: Record<string, Set<string>> = {};
  for (const statement of statementsOf(synthesized, roleOf(synthesized, functionName))) {
    const actions = actionsOf(statement).filter((action) => action.startsWith('sqs:'));
    for (const resource of [statement.Resource].flat() as { 'Fn::GetAtt'?: string[] }[]) {
      const queue = resource['Fn::GetAtt']?.[0];
      if (queue && actions.length > 0) for (const action of actions) (byQueue[queue] ??= new Set()).add(action);
    }
  }
  return Object.fromEntries(Object.entries(byQueue).map(([queue, actions]) => [queue, [...actions].sort()]));
};
