import { Duration } from 'aws-cdk-lib';

/** How often EventBridge starts `reset-flush`. */
export const RESET_FLUSH_RATE = Duration.hours(1);

/**
 * The hourly flush rule's name. Named, so that the data stack can let exactly this rule send to its dead-letter
 * queue without a reference to the service stack, which already depends on the data stack.
 */
export const resetFlushRuleName = (stageName: string): string => `delivery-limits-${stageName}-hourly-reset-flush`;
