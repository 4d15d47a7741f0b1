import { describe, expect, it } from 'vitest';
import {
  constantTimeEquals,
  hashPassword,
  md5Hex,
  randomToken,
  sha256Hex,
  verifyPassword,
} from '../../../../shared/domain/auth/crypto';

describe('crypto helpers', () => {
  it('hashes passwords with a salt and verifies them', async () => {
    const first = await hashPassword('correct horse');
    const second = await hashPassword('correct horse');
    expect(first).not.toBe(second);
    expect(first.startsWith('scrypt$')).toBe(true);
    expect(await verifyPassword('correct horse', first)).toBe(true);
    expect(await verifyPassword('correct horsf', first)).toBe(false);
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
  });

  it('computes the digests clients compute', () => {
    expect(md5Hex('password')).toBe('5f4dcc3b5aa765d61d8327deb882cf99');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('makes 128-bit hex tokens and compares in constant time', () => {
    expect(randomToken()).toMatch(/^[0-9a-f]{32}$/);
    expect(randomToken()).not.toBe(randomToken());
    expect(constantTimeEquals('abc', 'abc')).toBe(true);
    expect(constantTimeEquals('abc', 'abd')).toBe(false);
    expect(constantTimeEquals('abc', 'abcd')).toBe(false);
  });
});
