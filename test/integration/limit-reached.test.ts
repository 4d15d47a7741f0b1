import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, importCatalog, postJson, setClock } from '../support/http';
import { useTestService } from '../support/local-service';

const ctx = useTestService({ catalogFile: null });
const caller = () => apiClient(ctx.service.url, 'crossing-key-0001');

type Reached = {
  id: string;
  entity: string;
  cap: string;
  capValue: number;
  counter: number;
  bucket: string;
  at: string;
};

const deliver = async (body: unknown) => {
  const response = await postJson(`${ctx.service.url}/_local/delivery`, body);
  expect(response.status).toBe(200);
  return (await response.json()) as { limitReached: Reached[]; failedMessageIds: string[] };
};
const told = async () => (await (await fetch(`${ctx.service.url}/_local/events`)).json()) as Reached[];
const toldAbout = async (entity: string) => (await told()).filter((event) => event.entity === entity);

beforeAll(async () => {
  await importCatalog(ctx.service.url, {
    advertisers: [{ id: 80 }],
    campaigns: [
      { id: 800, advertiserId: 80 },
      { id: 801, advertiserId: 80 },
      { id: 802, advertiserId: 80 },
      { id: 803, advertiserId: 80 },
    ],
    banners: [
      { id: 8000, campaignId: 800 },
      { id: 8010, campaignId: 801 },
      { id: 8020, campaignId: 802 },
      { id: 8030, campaignId: 803 },
    ],
    users: [
      {
        id: 95,
        username: 'crossings',
        password: 'crossings-password',
        role: 'NETWORK',
        apiKeys: ['crossing-key-0001'],
        permissions: {
          'Manage Capping & Limitations': 'ENABLED',
          'Daily Clicks Limit': 'ENABLED',
          'Total Clicks Limit': 'ENABLED',
        },
        access: [{ type: 'ADVERTISER', id: 80, level: 'UPDATE' }],
      },
    ],
  });
});

afterEach(async () => {
  vi.restoreAllMocks();
  await setClock(ctx.service.url, { now: null });
});

describe('LimitReached through the table stream', () => {
  it('shows a crossing in /_local/events once, with its id, however its message is delivered again', async () => {
    await setClock(ctx.service.url, { now: '2026-11-25T10:00:00Z' });
    expect((await caller().post('/rest-api/campaign/800/limits/set.do', { dailyClicksLimit: '10' })).status).toBe(200);
    const message = { messageId: 'crossing-1', body: { kind: 'click', bannerId: 8000, count: 10 } };
    const first = await deliver({ messages: [message] });
    const id = 'CAMPAIGN#800/dailyClicksLimit=10/D#2026-11-25';
    expect(first.limitReached).toEqual([
      expect.objectContaining({ id, entity: 'CAMPAIGN#800', capValue: 10, counter: 10, bucket: 'D#2026-11-25' }),
    ]);
    // the same message again (a redelivery), then more clicks over the cap: nothing more to tell
    expect((await deliver({ messages: [message] })).limitReached).toEqual([]);
    expect((await deliver([{ kind: 'click', bannerId: 8000, count: 3 }])).limitReached).toEqual([]);
    const events = await toldAbout('CAMPAIGN#800');
    expect(events.map((event) => event.id)).toEqual([id]);
    // the shape outside tools read, with the id added
    expect(Object.keys(events[0]!).sort()).toEqual(
      ['at', 'bucket', 'cap', 'capValue', 'counter', 'entity', 'entityId', 'entityType', 'id'].sort(),
    );
    // the counting write's time, by the local clock, to the second (as DynamoDB Streams times a record)
    expect(events[0]!.at).toBe('2026-11-25T10:00:00.000Z');
  });

  it('tells a crossing again, under a new id, after a reset and on the next day', async () => {
    await setClock(ctx.service.url, { now: '2026-11-25T10:00:00Z' });
    await caller().post('/rest-api/campaign/801/limits/set.do', { dailyClicksLimit: '5' });
    await deliver([{ kind: 'click', bannerId: 8010, count: 5 }]);
    await caller().post('/rest-api/campaign/801/limits/reset.do', { limitCounters: 'DAILY_CLICKS' });
    expect(
      ((await (await postJson(`${ctx.service.url}/_local/flush`, {})).json()) as { applied: number }).applied,
    ).toBe(1);
    await deliver([{ kind: 'click', bannerId: 8010, count: 5 }]);
    await setClock(ctx.service.url, { now: '2026-11-26T10:00:00Z' });
    await deliver([{ kind: 'click', bannerId: 8010, count: 6 }]);
    const ids = (await toldAbout('CAMPAIGN#801')).map((event) => event.id);
    expect(ids).toHaveLength(3);
    expect(ids[0]).toBe('CAMPAIGN#801/dailyClicksLimit=5/D#2026-11-25');
    expect(ids[1]).toMatch(/^CAMPAIGN#801\/dailyClicksLimit=5\/D#2026-11-25\/reset@\d+$/);
    expect(ids[2]).toMatch(/^CAMPAIGN#801\/dailyClicksLimit=5\/D#2026-11-26\/reset@\d+$/);
  });

  it('keeps a crossing whose publication fails, and tells it once the bus takes it again', async () => {
    await setClock(ctx.service.url, { now: '2026-11-25T10:00:00Z' });
    await caller().post('/rest-api/campaign/802/limits/set.do', { totalClicksLimit: '4' });
    const publish = vi
      .spyOn(ctx.service.events, 'publishLimitReached')
      .mockRejectedValue(new Error('EventBridge is unavailable'));
    const recorded = await deliver([{ kind: 'click', bannerId: 8020, count: 4 }]);
    // the counters are written; the event waits on the stream
    expect(recorded).toMatchObject({ failedMessageIds: [], limitReached: [] });
    expect(await toldAbout('CAMPAIGN#802')).toEqual([]);
    expect(publish.mock.calls.length).toBeGreaterThanOrEqual(2);
    publish.mockRestore();
    const events = await toldAbout('CAMPAIGN#802');
    expect(events).toEqual([expect.objectContaining({ id: 'CAMPAIGN#802/totalClicksLimit=4/T', counter: 4 })]);
    expect(await toldAbout('CAMPAIGN#802')).toHaveLength(1);
  });

  it('gives a crossing up once the local clock is 6 hours past its record, its publication failing all along', async () => {
    await setClock(ctx.service.url, { now: '2026-11-25T10:00:00Z' });
    await caller().post('/rest-api/campaign/803/limits/set.do', { totalClicksLimit: '4' });
    vi.spyOn(ctx.service.events, 'publishLimitReached').mockRejectedValue(new Error('EventBridge is unavailable'));
    await deliver([{ kind: 'click', bannerId: 8030, count: 4 }]);
    const givenUp = async () =>
      ((await (await fetch(`${ctx.service.url}/_local/dead-letters`)).json()) as Record<string, string>[]).filter(
        (letter) => letter.reason === 'older than the maximum record age (21600 s)',
      );
    await setClock(ctx.service.url, { now: '2026-11-25T16:00:00Z' });
    expect(await toldAbout('CAMPAIGN#803')).toEqual([]);
    expect(await givenUp()).toEqual([]);
    await setClock(ctx.service.url, { now: '2026-11-25T16:00:01Z' });
    expect(await toldAbout('CAMPAIGN#803')).toEqual([]);
    // the failing batch was bisected on its retries: each part given up on its own
    const letters = await givenUp();
    expect(letters).not.toEqual([]);
    expect(new Set(letters.map(({ queue, source }) => `${queue} ${source}`))).toEqual(
      new Set(['HistoryEventsDlq table-stream-trigger']),
    );
  });
});
