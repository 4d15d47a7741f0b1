import { describe } from 'vitest';
import { meterStepRequest } from '../../../../shared/adapters/dynamodb/meter-store';
import { meterWindow, partnerPlan } from '../../../../shared/domain/metering/partner-quota';
import { itBuildsRequestsDynamoDbTakes } from '../../../support/store-requests';

const now = new Date('2026-11-25T12:00:00Z');
const window = meterWindow(partnerPlan(), now);

describe("the meter store's requests", () => {
  itBuildsRequestsDynamoDbTakes([
    ['a meter counted', meterStepRequest({ kind: 'count', window: window.window }, { PK: 'M', SK: 'D' }, window, now)],
    [
      'a meter window opened',
      meterStepRequest({ kind: 'open', window: window.window }, { PK: 'M', SK: 'D' }, window, now),
    ],
  ]);
});
