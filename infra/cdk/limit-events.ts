import { EVENT_SOURCE } from '../../shared/domain/event-names';
import { Duration, Fn, type Stack } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import { retainedInProduction } from './retention';

/**
 * The last 12 hex digits of the stack's id, which CloudFormation gives each new stack: a name that holds for the
 * stack's life and differs from the one a deleted stack left behind.
 */
const stackSuffix = (stack: Stack): string => Fn.select(4, Fn.split('-', Fn.select(2, Fn.split('/', stack.stackId))));

/**
 * The bus of LimitReached and LimitChanged, every event kept a year to replay into a consumer that was down or is
 * new. Production keeps both when the stack goes; their names (the bus's carries the stack's suffix, the
 * archive's is generated) leave room for a redeploy beside what was kept.
 */
export const buildLimitEventBus = (stack: Stack, stageName: string, production: boolean): events.EventBus => {
  const bus = new events.EventBus(stack, 'LimitEvents', {
    eventBusName: `delivery-limits-${stageName}-${stackSuffix(stack)}`,
  });
  bus.applyRemovalPolicy(retainedInProduction(production));
  const archive = bus.archive('LimitEventsArchive', {
    eventPattern: { source: [EVENT_SOURCE] },
    retention: Duration.days(365),
  });
  archive.applyRemovalPolicy(retainedInProduction(production));
  return bus;
};
