import { describe, expect, it } from 'vitest';
import { roundTrips, timeInRequests, type RecordedCommand } from '../../../bench/request-recorder';

const sent = (startedAt: number, endedAt: number): RecordedCommand => ({
  clientName: 'DynamoDBClient',
  commandName: 'GetItemCommand',
  input: {},
  startedAt,
  endedAt,
});

describe('the time a call had a request in flight', () => {
  it('adds requests sent one after another', () => {
    expect(timeInRequests([sent(0, 3), sent(5, 10)])).toBe(8);
  });

  it('counts requests in flight together once, in whatever order they were recorded', () => {
    expect(timeInRequests([sent(20, 25), sent(5, 12), sent(0, 10), sent(1, 2)])).toBe(17);
  });

  it('is nothing for a call that sent nothing', () => {
    expect(timeInRequests([])).toBe(0);
  });
});

describe('the round trips of a call', () => {
  it('are its longest chain of requests each sent after the one before it was answered', () => {
    expect(roundTrips([sent(0, 3), sent(0, 4), sent(5, 10), sent(11, 12)])).toBe(3);
  });
});
