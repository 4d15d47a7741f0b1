import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { ExactNumber } from '../../../../shared/domain/delivery/exact-units';
import type { LimitReached } from '../../../../shared/domain/delivery/limit-reached';
import { EventBridgePublisher } from '../../../../shared/adapters/eventbridge/eventbridge-publisher';

const events = mockClient(EventBridgeClient);
afterEach(() => events.reset());

describe('EventBridge publisher', () => {
  const reached = (i: number): LimitReached => ({
    id: `CAMPAIGN#${i}/dailyClicksLimit=1/D#2026-11-22`,
    entity: `CAMPAIGN#${i}`,
    entityType: 'CAMPAIGN',
    entityId: i,
    cap: 'dailyClicksLimit',
    capValue: 1,
    counter: new ExactNumber('1'),
    bucket: 'D#2026-11-22',
    at: '',
  });

  it('publishes LimitReached events ten per call on the configured bus', async () => {
    events.on(PutEventsCommand).resolves({ FailedEntryCount: 0 });
    await new EventBridgePublisher(new EventBridgeClient({}), 'limits-bus').publishLimitReached(
      Array.from({ length: 11 }, (_, i) => reached(i)),
    );
    const calls = events.commandCalls(PutEventsCommand);
    expect(calls.map((call) => call.args[0].input.Entries!.length)).toEqual([10, 1]);
    expect(calls[0]!.args[0].input.Entries![0]).toMatchObject({
      EventBusName: 'limits-bus',
      Source: 'delivery-limits',
      DetailType: 'LimitReached',
    });
    // counters travel as exact JSON numbers
    expect(JSON.parse(calls[0]!.args[0].input.Entries![0]!.Detail!)).toMatchObject({
      counter: 1,
      bucket: 'D#2026-11-22',
    });
  });

  it('fails when EventBridge refuses entries', async () => {
    events.on(PutEventsCommand).resolves({ FailedEntryCount: 1 });
    await expect(
      new EventBridgePublisher(new EventBridgeClient({}), 'b').publishLimitReached([reached(1)]),
    ).rejects.toThrow('refused');
  });
});
