import type { MeterStep, MeterWindow } from '../../domain/metering/partner-quota';
import type { ItemKey } from '../../table/keys';
import type { UpdateInput } from './attribute-values';
import { allOf, anyOf, attributeAbsent, below, equals, UpdateBuilder } from './expressions';

const DAY_SECONDS = 86_400;

/** One conditional write of a partner's meter: count in the open window, or open a later one; both add to the day. */
export const meterStepRequest = (step: MeterStep, key: ItemKey, at: MeterWindow, now: Date): UpdateInput => {
  const update = new UpdateBuilder();
  if (step.kind === 'count')
    update
      .add('winCount', 1)
      .add('dayCount', 1)
      .require(allOf(equals('win', step.window), below('winCount', at.windowLimit), below('dayCount', at.dayLimit)));
  else
    update
      .set('win', step.window)
      .set('winCount', 1)
      .set('expiresAt', Math.floor(now.getTime() / 1000) + at.secondsToNextDay + DAY_SECONDS)
      .add('dayCount', 1)
      .require(anyOf(attributeAbsent('win'), below('win', step.window)))
      .require(anyOf(attributeAbsent('dayCount'), below('dayCount', at.dayLimit)));
  // the counters as they stand after the write tell the caller what is left (its rate-limit fields)
  return { Key: key, ...update.build(), ReturnValues: 'ALL_NEW', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' };
};
