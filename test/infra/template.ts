import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { buildApp } from '../../infra/cdk/app';
import { DeliveryLimitsStack } from '../../infra/cdk/delivery-limits-stack';

export type Resource = {
  Type: string;
  Properties: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
};

/** cdk.json's context (feature flags included), as `cdk synth` gives it to the app. */
const CDK_CONTEXT = (JSON.parse(readFileSync('cdk.json', 'utf8')) as { context: Record<string, unknown> }).context;

/** An app that skips esbuild bundling: the template is what is under test here. */
export const unbundledApp = (context: Record<string, unknown> = {}) =>
  new App({ context: { ...CDK_CONTEXT, ...context, 'aws:cdk:bundling-stacks': [] } });

/** Context values a production synth needs (documented in docs/operations.md). */
export const PRODUCTION_CONTEXT = {
  production: 'true',
  stage: 'live',
  alarmEmail: 'oncall@limits.test',
  mailFrom: 'no-reply@limits.test',
  sesIdentity: 'limits.test',
  appBaseUrl: 'https://ui.limits.test',
  runbookUrl: 'https://git.limits.test/service/blob/main/docs/operations.md',
};

export interface Synthesized {
  app: App;
  stack: DeliveryLimitsStack;
  template: Template;
  resources: Record<string, Resource>;
  /** Resources of one type, with their logical ids. */
  ofType: (type: string) => [string, Resource][];
}

export const synthesize = (context: Record<string, unknown> = {}): Synthesized => {
  const app = buildApp(unbundledApp(context));
  const stack = app.node.children.find((child) => child instanceof DeliveryLimitsStack) as DeliveryLimitsStack;
  const template = Template.fromStack(stack);
  const resources = template.toJSON().Resources as Record<string, Resource>;
  const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
  return { app, stack, template, resources, ofType };
};

/** The logical id of a function's role, by the function's name (`delivery-recorder`). */
export const roleOf = (synthesized: Synthesized, functionName: string): string => {
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
export const statementsOf = (synthesized: Synthesized, role: string): Statement[] =>
  synthesized
    .ofType('AWS::IAM::Policy')
    .filter(([, policy]) => (policy.Properties.Roles as { Ref: string }[]).some((ref) => ref.Ref === role))
    .flatMap(([, policy]) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement);

export const actionsOf = (statement: Statement): string[] => [statement.Action].flat();
