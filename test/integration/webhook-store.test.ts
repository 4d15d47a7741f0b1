import { describe, expect, it } from 'vitest';
import { WriteConflict } from '../../shared/domain/errors';
import type { WebhookSubscription } from '../../shared/domain/webhooks/subscription';
import { scanTable, useTestService } from '../support/local-service';

const ctx = useTestService({ catalogFile: null });
const store = () => ctx.service.dependencies.webhooks;

let serial = 0;
const subscription = (userId: number, fields: Partial<WebhookSubscription> = {}): WebhookSubscription => {
  serial += 1;
  return {
    id: `wh_test${String(serial).padStart(16, '0')}`,
    userId,
    url: 'https://partner.example/hooks',
    events: ['limit.reached'],
    entities: [{ entityType: 'CAMPAIGN', entityId: 100 }],
    secrets: [{ value: 'whsec_c2VjcmV0', createdAt: '2026-11-27T09:00:00.000Z' }],
    status: 'active',
    createdAt: `2026-11-27T09:00:${String(serial % 60).padStart(2, '0')}.000Z`,
    activeSince: `2026-11-27T09:00:${String(serial % 60).padStart(2, '0')}.000Z`,
    version: 0,
    ...fields,
  };
};

describe('the webhook subscription store on DynamoDB Local', () => {
  it('keeps a subscription whole and shows it to its owner only, newest first', async () => {
    const older = subscription(1);
    const newer = subscription(1, { entities: [], events: ['limit.reached', 'limit.changed'] });
    await store().create(older);
    await store().create(newer);
    expect(await store().listOwn(1)).toEqual([newer, older]);
    expect(await store().getOwn(1, older.id)).toEqual(older);
    expect(await store().getOwn(2, older.id)).toBeUndefined();
    expect(await store().listOwn(2)).toEqual([]);
    expect(await store().delete(2, older.id)).toBe(false);
    expect(await store().getOwn(1, older.id)).toEqual(older);
  });

  it('refuses an eleventh subscription, even among concurrent creates, and counts a delete back', async () => {
    const results = await Promise.allSettled(Array.from({ length: 14 }, () => store().create(subscription(3))));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(10);
    for (const result of results.filter((result) => result.status === 'rejected'))
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(WriteConflict);
    const own = await store().listOwn(3);
    expect(own).toHaveLength(10);
    expect(await store().delete(3, own[0]!.id)).toBe(true);
    expect(await store().delete(3, own[0]!.id)).toBe(false);
    await store().create(subscription(3));
    await expect(store().create(subscription(3))).rejects.toBeInstanceOf(WriteConflict);
  });

  it('extends a failure run on each failed attempt and clears it on a success, writing nothing for a success alone', async () => {
    const subject = subscription(4);
    await store().create(subject);
    expect(await store().recordAttempt(subject, { ok: true, at: new Date('2026-11-27T09:59:00Z') })).toBe(subject);
    const first = await store().recordAttempt(subject, {
      ok: false,
      at: new Date('2026-11-27T10:00:00Z'),
      reason: 'HTTP 500',
    });
    expect(first?.failureRun).toEqual({ since: '2026-11-27T10:00:00.000Z', attempts: 1 });
    const second = await store().recordAttempt(first!, {
      ok: false,
      at: new Date('2026-11-27T10:05:00Z'),
      reason: 'timeout',
    });
    expect(second?.failureRun).toEqual({ since: '2026-11-27T10:00:00.000Z', attempts: 2 });
    const cleared = await store().recordAttempt(second!, { ok: true, at: new Date('2026-11-27T10:10:00Z') });
    expect(cleared).toEqual(subject);
    const gone = {
      ...subject,
      id: 'wh_unknownunknownunkno',
      failureRun: { since: '2026-11-27T10:00:00.000Z', attempts: 1 },
    };
    expect(await store().recordAttempt(gone, { ok: true, at: new Date() })).toBeUndefined();
  });

  it('routes only active subscriptions, from the moment their write commits', async () => {
    const subject = subscription(5);
    const other = subscription(5, { entities: [], events: ['limit.changed'] });
    await store().create(subject);
    await store().create(other);
    const routeIds = async () => (await store().routesOf([5, 6])).map((route) => route.id).sort();
    expect(await routeIds()).toEqual([subject.id, other.id].sort());
    expect(await store().routesOf([5])).toContainEqual({
      id: other.id,
      userId: 5,
      events: ['limit.changed'],
      entities: [],
      activeSince: other.activeSince,
    });
    await store().disable(5, subject.id, 'failed 3 times in a row');
    expect(await store().getOwn(5, subject.id)).toMatchObject({
      status: 'disabled',
      disabledReason: 'failed 3 times in a row',
    });
    expect(await routeIds()).toEqual([other.id]);
    const off = (await store().getOwn(5, subject.id))!;
    const on = { ...off, status: 'active' as const, activeSince: '2026-11-27T12:00:00.000Z' };
    delete on.disabledReason;
    expect(await store().change(off, on)).toBe(true);
    expect((await store().routesOf([5])).find((route) => route.id === subject.id)?.activeSince).toBe(on.activeSince);
    expect(await store().getOwn(5, subject.id)).toEqual({ ...on, version: 1 });
  });

  it("saves an owner's change only over the state it read, and a delete leaves nothing behind but the count", async () => {
    const subject = subscription(7);
    await store().create(subject);
    const secrets = [
      { value: 'whsec_bmV3', createdAt: '2026-11-27T11:00:00.000Z' },
      { ...subject.secrets[0]!, expiresAt: '2026-11-28T11:00:00.000Z' },
    ];
    expect(await store().change(subject, { ...subject, secrets })).toBe(true);
    expect((await store().getOwn(7, subject.id))?.secrets).toEqual(secrets);
    // the same read again: another change came between
    await expect(store().change(subject, { ...subject, url: 'https://partner.example/other' })).rejects.toBeInstanceOf(
      WriteConflict,
    );
    expect(await store().delete(7, subject.id)).toBe(true);
    expect(await store().change(subject, { ...subject, secrets })).toBe(false);
    const left = (await scanTable(ctx.service)).filter((item) => item.PK === 'WEBHOOKS#7');
    expect(left).toEqual([{ PK: 'WEBHOOKS#7', SK: 'ROUTES', userId: 7, count: 0 }]);
  });
});
