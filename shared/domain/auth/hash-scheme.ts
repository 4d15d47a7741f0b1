import { constantTimeEquals, md5Hex } from './crypto';

/** How far the client's clock may be from ours. */
export const HASH_WINDOW_MS = 5 * 60 * 1000;

/** Epom's scheme: `hash = md5hex(md5hex(password) + timestamp)`, timestamp in decimal Unix milliseconds. */
export const expectedHash = (passwordMd5Hex: string, timestamp: string): string => md5Hex(passwordMd5Hex + timestamp);

export const isTimestampFresh = (timestamp: string, now: Date): boolean =>
  /^\d{1,16}$/.test(timestamp) && Math.abs(Number(timestamp) - now.getTime()) <= HASH_WINDOW_MS;

export const isHashValid = (passwordMd5Hex: string, timestamp: string, hash: string): boolean =>
  constantTimeEquals(expectedHash(passwordMd5Hex, timestamp), hash.toLowerCase());
