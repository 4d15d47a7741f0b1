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

  it('extends a failure run on each failed attempt and clears it on a success', async () => {
    const subject = subscription(4);
    await store().create(subject);
    const first = await store().recordAttempt(subject.id, {
      ok: false,
      at: new Date('2026-11-27T10:00:00Z'),
      reason: 'HTTP 500',
    });
    expect(first?.failureRun).toEqual({ since: '2026-11-27T10:00:00.000Z', attempts: 1 });
    const second = await store().recordAttempt(subject.id, {
      ok: false,
      at: new Date('2026-11-27T10:05:00Z'),
      reason: 'timeout',
    });
    expect(second?.failureRun).toEqual({ since: '2026-11-27T10:00:00.000Z', attempts: 2 });
    const cleared = await store().recordAttempt(subject.id, { ok: true, at: new Date('2026-11-27T10:10:00Z') });
    expect(cleared).toEqual(subject);
    expect(await store().recordAttempt('wh_unknown', { ok: true, at: new Date() })).toBeUndefined();
  });

  it('lists only active subscriptions to the dispatcher, and enable turns one back on without its failure run', async () => {
    const subject = subscription(5);
    await store().create(subject);
    await store().recordAttempt(subject.id, { ok: false, at: new Date('2026-11-27T10:00:00Z'), reason: 'HTTP 410' });
    await store().disable(subject.id, 'failed 3 times in a row');
    expect(await store().getOwn(5, subject.id)).toMatchObject({
      status: 'disabled',
      disabledReason: 'failed 3 times in a row',
    });
    const active = await store().listActive();
    expect(active.map((each) => each.id)).not.toContain(subject.id);
    expect(active.every((each) => each.status === 'active' && each.url.startsWith('https://'))).toBe(true);
    expect(active.length).toBeGreaterThan(0);
    expect(await store().enable(6, subject.id)).toBe(false);
    expect(await store().enable(5, subject.id)).toBe(true);
    expect(await store().getOwn(5, subject.id)).toEqual(subject);
    expect((await store().listActive()).map((each) => each.id)).toContain(subject.id);
  });

  it('replaces the secrets of an owned subscription only, and a delete leaves nothing behind but the count', async () => {
    const subject = subscription(7);
    await store().create(subject);
    const secrets = [
      { value: 'whsec_bmV3', createdAt: '2026-11-27T11:00:00.000Z' },
      { ...subject.secrets[0]!, expiresAt: '2026-11-28T11:00:00.000Z' },
    ];
    expect(await store().replaceSecrets(8, subject.id, secrets)).toBe(false);
    expect(await store().replaceSecrets(7, subject.id, secrets)).toBe(true);
    expect((await store().getOwn(7, subject.id))?.secrets).toEqual(secrets);
    expect(await store().delete(7, subject.id)).toBe(true);
    const left = (await scanTable(ctx.service)).filter((item) => String(item.SK).includes('7'));
    expect(left.filter((item) => item.PK === 'WEBHOOKS' && String(item.SK).includes(subject.id))).toEqual([]);
    expect(left).toContainEqual({ PK: 'WEBHOOKS', SK: 'COUNT#7', count: 0 });
  });
});
