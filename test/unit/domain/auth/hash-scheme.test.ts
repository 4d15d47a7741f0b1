import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectedHash, isHashValid, isTimestampFresh } from '../../../../shared/domain/auth/hash-scheme';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

describe('Epom hash scheme', () => {
  it('is md5 hex of md5 hex of the password followed by the decimal millisecond timestamp', () => {
    const timestamp = '1795000000000';
    // what Epom's PHP examples compute: md5(md5($password) . $timestamp)
    const client = md5(md5('alice-password') + timestamp);
    expect(expectedHash(md5('alice-password'), timestamp)).toBe(client);
    expect(isHashValid(md5('alice-password'), timestamp, client)).toBe(true);
    expect(isHashValid(md5('alice-password'), timestamp, client.toUpperCase())).toBe(true);
    expect(isHashValid(md5('alice-password'), '1795000000001', client)).toBe(false);
  });

  it('accepts timestamps within five minutes either way', () => {
    const now = new Date(1_795_000_000_000);
    expect(isTimestampFresh(String(now.getTime() - 300_000), now)).toBe(true);
    expect(isTimestampFresh(String(now.getTime() + 300_000), now)).toBe(true);
    expect(isTimestampFresh(String(now.getTime() - 300_001), now)).toBe(false);
    expect(isTimestampFresh(String(now.getTime() + 300_001), now)).toBe(false);
    expect(isTimestampFresh('1.795e12', now)).toBe(false);
    expect(isTimestampFresh('-1', now)).toBe(false);
  });
});
