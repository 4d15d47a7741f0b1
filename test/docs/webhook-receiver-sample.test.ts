import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { webhookHeaders } from '../../shared/domain/webhooks/webhook-signature';

type Verify = (secret: string, headers: Record<string, string | undefined>, body: string, nowMs?: number) => boolean;

/** The partner guide's TypeScript verifier, exactly as printed: the first `ts` block of its webhooks section. */
const sampleVerifier = async (): Promise<Verify> => {
  const guide = readFileSync('docs/partner-guide.md', 'utf8');
  const section = guide.slice(guide.indexOf('## Webhooks: receiving events'));
  const code = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
  const file = join(mkdtempSync(join(tmpdir(), 'webhook-sample-')), 'verify-webhook.ts');
  writeFileSync(file, code);
  return ((await import(pathToFileURL(file).href)) as { verifyWebhook: Verify }).verifyWebhook;
};

let verifyWebhook: Verify;
beforeAll(async () => {
  verifyWebhook = await sampleVerifier();
});

// the Standard Webhooks reference library's published example (libraries/javascript, "sign function works")
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  headers: {
    'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
    'webhook-timestamp': '1614265330',
    'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  },
  body: '{"test": 2432232314}',
  nowMs: 1614265330_000,
};

describe("the partner guide's TypeScript webhook verifier", () => {
  it('accepts the Standard Webhooks published example', () => {
    expect(verifyWebhook(VECTOR.secret, VECTOR.headers, VECTOR.body, VECTOR.nowMs)).toBe(true);
  });

  it('refuses a changed body, another id, a stale timestamp, a wrong secret and a missing header', () => {
    const { secret, headers, body, nowMs } = VECTOR;
    expect(verifyWebhook(secret, headers, `${body} `, nowMs)).toBe(false);
    expect(verifyWebhook(secret, { ...headers, 'webhook-id': 'msg_other' }, body, nowMs)).toBe(false);
    expect(verifyWebhook(secret, headers, body, nowMs + 301_000)).toBe(false);
    expect(verifyWebhook('whsec_' + Buffer.from('another key').toString('base64'), headers, body, nowMs)).toBe(false);
    expect(verifyWebhook(secret, { ...headers, 'webhook-signature': undefined }, body, nowMs)).toBe(false);
    expect(verifyWebhook(secret, { ...headers, 'webhook-signature': 'v1,short' }, body, nowMs)).toBe(false);
  });

  it('accepts what the service signs, with either secret while a rotated one is still valid', () => {
    const now = new Date('2026-11-25T10:00:00Z');
    const fresh = `whsec_${Buffer.from('a fresh secret of 32 bytes......').toString('base64')}`;
    const old = `whsec_${Buffer.from('the old secret of 32 bytes......').toString('base64')}`;
    const body =
      '{"type":"limit.reached","timestamp":"2026-11-25T10:00:00.000Z","data":{"entity":"CAMPAIGN#1","hidden":true}}';
    const headers = webhookHeaders(
      { id: 'CAMPAIGN#1/hidden@2026-11-25T10:00:00.000Z', body },
      [
        { value: fresh, createdAt: '2026-11-25T09:00:00Z' },
        { value: old, createdAt: '2026-11-01T00:00:00Z', expiresAt: '2026-11-26T00:00:00Z' },
      ],
      now,
    );
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [fresh, old]) expect(verifyWebhook(secret, headers, body, now.getTime())).toBe(true);
  });
});

describe("the partner guide's webhook receiver", () => {
  it('listens on the port of the URL the guide subscribes', () => {
    const guide = readFileSync('docs/partner-guide.md', 'utf8');
    const subscribed = [...guide.matchAll(/-d url=http:\/\/127\.0\.0\.1:(\d+)\//g)].map(([, port]) => port);
    const receiving = guide.slice(guide.indexOf('## Webhooks: receiving events'));
    const listening = [...receiving.matchAll(/\.listen\((\d+)\)/g)].map(([, port]) => port);
    expect(subscribed.length).toBeGreaterThan(0);
    expect(listening).toHaveLength(1);
    expect(new Set(subscribed)).toEqual(new Set(listening));
  });
});
