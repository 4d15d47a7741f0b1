import { Stack, Validations, type IAspect } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { IConstruct } from 'constructs';

/** The actions IAM knows no resource of, so that they are granted on "*", and why the stack grants each. */
export const WILDCARD_ONLY_ACTIONS: Readonly<Record<string, string>> = {
  'xray:PutTraceSegments':
    'X-Ray takes trace segments on "*" only (no resource type); CDK grants it to a function traced with tracing=true',
  'xray:PutTelemetryRecords':
    'X-Ray takes telemetry on "*" only (no resource type); CDK grants it to a function traced with tracing=true',
  'dynamodb:ListStreams':
    'dynamodb:ListStreams has no resource type; CDK grants it with the table stream trigger, whose other actions name the stream',
};

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

const FINDING = 'AwsSolutions::AwsSolutions-IAM5[Resource::*]';

/**
 * cdk-nag's wildcard finding acknowledged on each policy whose grants on "*" are all actions that have no resource
 * (`WILDCARD_ONLY_ACTIONS`), with their reasons; a policy granting anything else on "*" keeps the finding, and
 * synth stops on it. An aspect, so that it judges every statement added before synthesis.
 */
export class WildcardGrants implements IAspect {
  visit(node: IConstruct): void {
    if (!(node instanceof iam.Policy)) return;
    const document = Stack.of(node).resolve(node.document) as { Statement?: Statement[] } | undefined;
    const actions = (document?.Statement ?? [])
      .filter((statement) => statement.Effect === 'Allow' && [statement.Resource].flat().includes('*'))
      .flatMap((statement) => [statement.Action].flat());
    if (actions.length === 0 || !actions.every((action) => action in WILDCARD_ONLY_ACTIONS)) return;
    const reasons = [...new Set(actions.map((action) => WILDCARD_ONLY_ACTIONS[action]))];
    Validations.of(node).acknowledge({ id: FINDING, reason: `${reasons.join('. ')}.` });
  }
}
