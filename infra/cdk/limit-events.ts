import { Duration, type Stack } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import { retainedInProduction } from './retention';

/** The bus of LimitReached and LimitChanged, every event kept a year to replay into a consumer that was down or is new. */
export const buildLimitEventBus = (stack: Stack, stageName: string, production: boolean): events.EventBus => {
  const bus = new events.EventBus(stack, 'LimitEvents', { eventBusName: `delivery-limits-${stageName}` });
  const archive = bus.archive('LimitEventsArchive', {
    archiveName: `delivery-limits-${stageName}-limit-events`,
    eventPattern: { source: ['delivery-limits'] },
    retention: Duration.days(365),
  });
  archive.applyRemovalPolicy(retainedInProduction(production));
  return bus;
};
