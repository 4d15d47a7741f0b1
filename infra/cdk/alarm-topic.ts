import type { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { retainedInProduction } from './retention';

export interface AlarmDestination {
  production: boolean;
  alarmEmail?: string;
  alarmTopicArn?: string;
}

/**
 * The alarm topic: its policy enforces SSL and lets CloudWatch (of this account only) publish; an existing
 * `alarmTopicArn` keeps the policy its owner gave it. Kept with the data: its e-mail subscription, once confirmed,
 * is state a redeploy must not ask the on-call person to confirm again.
 */
export const buildAlarmTopic = (stack: Stack, destination: AlarmDestination): sns.ITopic => {
  if (destination.alarmTopicArn) return sns.Topic.fromTopicArn(stack, 'Alarms', destination.alarmTopicArn);
  const topic = new sns.Topic(stack, 'Alarms', { enforceSSL: true });
  topic.applyRemovalPolicy(retainedInProduction(destination.production));
  topic.addToResourcePolicy(
    new iam.PolicyStatement({
      sid: 'CloudWatchAlarmsPublish',
      principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['sns:Publish'],
      resources: [topic.topicArn],
      conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
    }),
  );
  if (destination.alarmEmail) topic.addSubscription(new subscriptions.EmailSubscription(destination.alarmEmail));
  return topic;
};
