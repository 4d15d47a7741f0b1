import { recordersNeeded, warmThroughput, tableThroughput, type Load } from './capacity';
import { RECORDER_EVENTS_PER_SECOND } from './delivery-settings';
import { optionalPositiveSetting, positiveSetting, type Context } from './context-settings';
import { SettingError } from './setting-error';

/**
 * The documented 1× load (docs/capacity.md), a production stage's unless its settings say otherwise;
 * `writeUnitsPerBatch` is what `npm run simulate` measures at 1×.
 */
export const BASELINE_LOAD: Load = {
  deliveryEventsPerSecond: 200_000,
  eventsPerMessage: 100,
  writeUnitsPerBatch: 561,
  apiRequestsPerSecond: 1_000,
};

/**
 * Any other stage's load unless its settings say otherwise: a hundredth of the baseline's delivery events, its API
 * requests. The table it needs fits what a new on-demand table serves, so nothing is warmed, and every quota it
 * needs is a new account's default (docs/operations.md).
 */
export const DEVELOPMENT_LOAD: Load = { ...BASELINE_LOAD, deliveryEventsPerSecond: 2_000 };

export interface LoadSettings {
  load: Load;
  /** The stage's own throttle: every caller together (API Gateway's account rate is above it). */
  stageThrottle: { rateLimit: number; burstLimit: number };
  /** The cost guard: the most on-demand request units a second the table may take, when the operator sets one. */
  maxRequestUnits: { read?: number; write?: number };
}

/** The load and what is sized from it; defaults are the documented 1× load in production, a development load elsewhere. */
export const loadSettings = (context: Context, production: boolean): LoadSettings => {
  const defaults = production ? BASELINE_LOAD : DEVELOPMENT_LOAD;
  const load: Load = {
    deliveryEventsPerSecond: positiveSetting(context, 'deliveryEventsPerSecond', defaults.deliveryEventsPerSecond),
    eventsPerMessage: positiveSetting(context, 'eventsPerMessage', defaults.eventsPerMessage),
    writeUnitsPerBatch: positiveSetting(context, 'writeUnitsPerBatch', defaults.writeUnitsPerBatch),
    apiRequestsPerSecond: positiveSetting(context, 'apiRequestsPerSecond', defaults.apiRequestsPerSecond),
  };
  // twice the load: room for a partner's burst above the average
  const rateLimit = positiveSetting(context, 'stageRateLimit', 2 * load.apiRequestsPerSecond);
  return {
    load,
    stageThrottle: { rateLimit, burstLimit: positiveSetting(context, 'stageBurstLimit', 2 * rateLimit) },
    maxRequestUnits: {
      read: optionalPositiveSetting(context, 'maxReadRequestUnits'),
      write: optionalPositiveSetting(context, 'maxWriteRequestUnits'),
    },
  };
};

const refuse = (first: string, second: string, why: string) =>
  new SettingError(`${first} contradicts ${second}: ${why}`);

/** Numbers that cannot all hold: synth stops and names both. */
export const checkContradictions = (
  settings: LoadSettings & { deliveryMaxConcurrency: number; recorderReservation?: number },
): void => {
  const { load, stageThrottle, maxRequestUnits, deliveryMaxConcurrency, recorderReservation } = settings;
  if (stageThrottle.rateLimit < load.apiRequestsPerSecond)
    throw refuse(
      `stageRateLimit=${stageThrottle.rateLimit}`,
      `apiRequestsPerSecond=${load.apiRequestsPerSecond}`,
      'the stage would throttle the load it must carry',
    );
  if (recorderReservation !== undefined && recorderReservation < deliveryMaxConcurrency)
    throw refuse(
      `recorderReservedConcurrency=${recorderReservation}`,
      `deliveryMaxConcurrency=${deliveryMaxConcurrency}`,
      'the queue would start recorders that Lambda then throttles',
    );
  if (deliveryMaxConcurrency < recordersNeeded(load))
    throw refuse(
      `deliveryMaxConcurrency=${deliveryMaxConcurrency}`,
      `deliveryEventsPerSecond=${load.deliveryEventsPerSecond}`,
      `one recorder records about ${RECORDER_EVENTS_PER_SECOND} events a second: the load needs ${recordersNeeded(load)}`,
    );
  const warm = warmThroughput(load);
  const carried = warm ?? tableThroughput(load);
  for (const [kind, guard, needed] of [
    ['Write', maxRequestUnits.write, carried.writeUnitsPerSecond],
    ['Read', maxRequestUnits.read, carried.readUnitsPerSecond],
  ] as const)
    if (guard !== undefined && guard < needed)
      throw refuse(
        `max${kind}RequestUnits=${guard}`,
        warm
          ? `the warm throughput of ${needed} ${kind.toLowerCase()} units a second sized from the load`
          : `the load's ${needed} ${kind.toLowerCase()} units a second`,
        'the cost guard would throttle the load the table must carry',
      );
};
