import { beforeAll, describe, expect, it } from 'vitest';
import { createRecorder } from '../../functions/delivery-recorder/handler';
import { apiClient, importCatalog, postJson } from '../support/http';
import { useTestService } from '../support/local-service';

/**
 * Every delivery message changes the counters exactly once, whatever the platform does. The ground truth is
 * computed here from the events, independently of the service.
 */
const ctx = useTestService();
const demo = () => apiClient(ctx.service.url, 'demo-key-0001');

const ADVERTISER = 70;
const CAMPAIGNS = [700, 701, 702];
const BANNERS = Array.from({ length: 10 }, (_, i) => 7000 + i);
const campaignOf = (banner: number) => CAMPAIGNS[banner % 3]!;

type Event = { kind: 'impression' | 'click'; bannerId: number; count: number; revenue: string };
type Message = { messageId: string; body: Event[]; group?: string };
type Answer = {
  failedMessageIds: string[];
  duplicateMessages: number;
  recordedEvents: number;
  deadLettered: unknown[];
};

/** Totals per entity in thousandths for budget, as the service must come to. */
const truth = new Map<string, { impressions: number; clicks: number; budgetMillis: number }>();
const addTruth = (events: readonly Event[]) => {
  for (const event of events)
    for (const entity of [
      `banner/${event.bannerId}`,
      `campaign/${campaignOf(event.bannerId)}`,
      `advertiser/${ADVERTISER}`,
    ]) {
      const totals = truth.get(entity) ?? { impressions: 0, clicks: 0, budgetMillis: 0 };
      totals[event.kind === 'impression' ? 'impressions' : 'clicks'] += event.count;
      totals.budgetMillis += Math.round(Number(event.revenue) * 1000) * event.count;
      truth.set(entity, totals);
    }
};

let batchNumber = 0;
/** 20 messages of 1 to 3 events over the 10 banners of the 3 campaigns. */
const batchOf20 = (): Message[] => {
  batchNumber++;
  return Array.from({ length: 20 }, (_, i) => ({
    messageId: `b${batchNumber}-m${i}`,
    body: Array.from({ length: 1 + (i % 3) }, (_, j) => ({
      kind: (i + j) % 2 === 0 ? 'impression' : 'click',
      bannerId: BANNERS[(i * 3 + j) % 10]!,
      count: 1 + ((i + j) % 4),
      revenue: `0.${String(1 + ((i * 7 + j) % 999)).padStart(3, '0')}`,
    })),
  }));
};

const deliver = async (messages: readonly Message[]): Promise<Answer> => {
  const response = await postJson(`${ctx.service.url}/_local/delivery`, { messages });
  expect(response.status).toBe(200);
  return (await response.json()) as Answer;
};

const expectTruth = async () => {
  for (const [entity, totals] of truth) {
    const read = (await (await demo().get(`/rest-api/${entity}/limits.do`)).json()) as Record<string, number>;
    expect(
      {
        impressions: read.totalImpressions,
        clicks: read.totalClicks,
        budgetMillis: Math.round(read.totalBudget! * 1000),
      },
      entity,
    ).toEqual(totals);
  }
};

beforeAll(async () => {
  await importCatalog(ctx.service.url, {
    advertisers: [{ id: ADVERTISER }],
    campaigns: CAMPAIGNS.map((id) => ({ id, advertiserId: ADVERTISER })),
    banners: BANNERS.map((id) => ({ id, campaignId: campaignOf(id) })),
  });
  await importCatalog(ctx.service.url, {
    users: [
      {
        id: 1,
        username: 'demo',
        password: 'demo-password',
        email: 'demo@example.com',
        role: 'NETWORK',
        apiKeys: ['demo-key-0001'],
        permissions: Object.fromEntries(
          ['Manage Capping & Limitations', 'Total Impressions Limit', 'Total Clicks Limit', 'Budget'].map((name) => [
            name,
            'ENABLED',
          ]),
        ),
        access: [{ type: 'ADVERTISER', id: ADVERTISER, level: 'UPDATE' }],
      },
    ],
  });
  for (const entity of [
    `advertiser/${ADVERTISER}`,
    ...CAMPAIGNS.map((id) => `campaign/${id}`),
    ...BANNERS.map((id) => `banner/${id}`),
  ])
    expect(
      (
        await demo().post(`/rest-api/${entity}/limits/set.do`, {
          totalImpressionsLimit: '4000000000',
          totalClicksLimit: '4000000000',
          totalBudgetLimit: '9999999999.999',
        })
      ).status,
    ).toBe(200);
});

describe('exactly-once recording', () => {
  it('stays exact with a write failing at every index in turn, the failed messages delivered again until none fail', async () => {
    // 10 banners + 3 campaigns + 1 advertiser: 14 counter items, so 14 writes; 16 covers "no write failed" too
    for (let index = 1; index <= 16; index++) {
      const messages = batchOf20();
      addTruth(messages.flatMap((message) => message.body));
      await postJson(`${ctx.service.url}/_local/faults`, { failWrites: [index] });
      let answer = await deliver(messages);
      if (index <= 14) expect(answer.failedMessageIds.length, `fault at write ${index}`).toBeGreaterThan(0);
      for (let round = 0; answer.failedMessageIds.length > 0; round++) {
        expect(round, 'redeliveries until none fail').toBeLessThan(5);
        const failed = new Set(answer.failedMessageIds);
        answer = await deliver(messages.filter((message) => failed.has(message.messageId)));
      }
      await expectTruth();
    }
    await postJson(`${ctx.service.url}/_local/faults`, { failWrites: [] });
    // 16 batches and their redeliveries: about 10 s idle, over the default 20 s on a loaded machine
  }, 120_000);

  it('stays exact with more groups than an item holds, a write failing or its answer lost at every index in turn', async () => {
    // 40 groups a batch, a message each: the advertiser's item holds 32 markers and keeps the others beside it, the
    // campaigns' from the third batch, the banners' from the eighth, so most writes are transactions; each of the
    // 14 items is written at least once a batch: a lost answer after commit at each index, a fault before it at
    // every other one
    let batch = 0;
    let lostAfterCommit = 0;
    for (let index = 1; index <= 14; index++)
      for (const fault of index % 2 ? (['failWrites', 'loseAnswers'] as const) : (['loseAnswers'] as const)) {
        const messages = batchOf20()
          .concat(batchOf20())
          .map((message, i) => ({ ...message, group: `groups-${++batch}-${i}-`.padEnd(128, 'g') }));
        addTruth(messages.flatMap((message) => message.body));
        await postJson(`${ctx.service.url}/_local/faults`, { failWrites: [], [fault]: [index] });
        let answer = await deliver(messages);
        // a write refused on its condition has no answer to lose: a lost answer fails a message when it hits a commit
        if (fault === 'failWrites') expect(answer.failedMessageIds.length, `failWrites at ${index}`).toBeGreaterThan(0);
        else if (answer.failedMessageIds.length > 0) lostAfterCommit++;
        for (let round = 0; answer.failedMessageIds.length > 0; round++) {
          expect(round, 'redeliveries until none fail').toBeLessThan(5);
          const failed = new Set(answer.failedMessageIds);
          answer = await deliver(messages.filter((message) => failed.has(message.messageId)));
        }
        await expectTruth();
      }
    expect(lostAfterCommit, 'batches that lost the answer to a write that committed').toBeGreaterThan(5);
    await postJson(`${ctx.service.url}/_local/faults`, { failWrites: [] });
  }, 600_000);

  it('changes nothing when all 20 messages are delivered again, and says they were duplicates', async () => {
    const messages = batchOf20();
    addTruth(messages.flatMap((message) => message.body));
    expect((await deliver(messages)).failedMessageIds).toEqual([]);
    const again = await deliver(messages);
    expect(again).toMatchObject({ failedMessageIds: [], duplicateMessages: 20 });
    await expectTruth();
  });

  it('counts a message delivered twice in one batch once', async () => {
    const [message] = batchOf20();
    addTruth(message!.body);
    const answer = await deliver([message!, message!]);
    expect(answer).toMatchObject({ failedMessageIds: [], duplicateMessages: 1 });
    await expectTruth();
  });

  it('counts once when two recorder invocations race on the same messages (a timed-out invocation still writing)', async () => {
    const messages = batchOf20();
    addTruth(messages.flatMap((message) => message.body));
    const event = {
      Records: messages.map((message, i) => ({
        messageId: message.messageId,
        body: JSON.stringify(message.body),
        attributes: { MessageGroupId: 'race', SequenceNumber: String(1000 + i), SentTimestamp: String(Date.now()) },
      })),
    } as never;
    const record = createRecorder(ctx.service.dependencies);
    const answers = await Promise.all([record(event), record(event), record(event)]);
    expect(answers.flatMap(({ response }) => response.batchItemFailures)).toEqual([]);
    await expectTruth();
  });
});

describe('values no counter can hold', () => {
  it('dead-letters a message whose sequence number SQS FIFO cannot have given, and counts the rest of its batch', async () => {
    const [kept] = batchOf20();
    addTruth(kept!.body);
    const records = [
      { messageId: 'letters', sequence: '12ab' },
      { messageId: 'too-long', sequence: '1'.repeat(41) },
      { messageId: kept!.messageId, sequence: '18849496460467696128', body: kept!.body },
    ].map(({ messageId, sequence, body }) => ({
      messageId,
      body: JSON.stringify(body ?? { kind: 'impression', bannerId: 7000 }),
      attributes: { MessageGroupId: 'odd-sequences', SequenceNumber: sequence, SentTimestamp: String(Date.now()) },
    }));
    const { response, summary } = await createRecorder(ctx.service.dependencies)({ Records: records } as never);
    expect(response.batchItemFailures).toEqual([]);
    expect(summary.deadLettered).toEqual(
      ['letters', 'too-long'].map((messageId) => ({ messageId, reason: expect.stringContaining('SequenceNumber') })),
    );
    await expectTruth();
  });

  it('dead-letters an event whose budget no counter can take, and the tree stays readable', async () => {
    const answer = await deliver([
      {
        messageId: 'poison',
        body: { kind: 'impression', bannerId: 7000, revenue: '9999999999.999', count: 1_000_000 } as never,
      },
    ]);
    expect(answer.deadLettered).toEqual([{ messageId: 'poison', reason: expect.stringContaining('revenue × count') }]);
    for (const entity of ['banner/7000', `campaign/${campaignOf(7000)}`, `advertiser/${ADVERTISER}`]) {
      expect((await demo().get(`/rest-api/${entity}/limits.do`)).status, entity).toBe(200);
      expect((await demo().get(`/rest-api/${entity}/limits/status.do`)).status, entity).toBe(200);
    }
    await expectTruth();
  });

  it('reads a budget counter of 9999999999999.999 back exactly', async () => {
    await demo().delete('/rest-api/banner/7009/limits.do');
    await demo().post('/rest-api/banner/7009/limits/set.do', {
      totalBudgetLimit: '9999999999.999',
      totalImpressionsLimit: '10',
    });
    const answer = await deliver([
      { messageId: 'largest', body: { kind: 'impression', bannerId: 7009, revenue: '9999999999999.999' } as never },
    ]);
    expect(answer).toMatchObject({ failedMessageIds: [], deadLettered: [] });
    const raw = await (await demo().get('/rest-api/banner/7009/limits.do')).text();
    expect(raw).toContain('"totalBudget":9999999999999.999');
    expect(raw).toContain('"totalImpressions":1');
  });
});

describe('the hourly flush', () => {
  it('applies a queued reset once when two flushes run at once', async () => {
    expect(
      (await demo().post(`/rest-api/campaign/${CAMPAIGNS[0]}/limits/reset.do`, { limitCounters: 'TOTAL_CLICKS' }))
        .status,
    ).toBe(200);
    const results = (await Promise.all(
      [1, 2].map(async () => (await postJson(`${ctx.service.url}/_local/flush`, {})).json()),
    )) as { applied: number }[];
    expect(results.map((result) => result.applied).reduce((a, b) => a + b)).toBe(1);
    expect(ctx.service.resetQueue.size).toBe(0);
  });
});
