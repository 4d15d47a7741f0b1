import { hash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const SCRYPT = { N: 16384, r: 8, p: 1, keyLength: 32 } as const;

const scryptAsync = (password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    scrypt(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))),
  );

/** A salted scrypt hash, self-describing: `scrypt$N$r$p$<salt b64>$<key b64>`. */
export const hashPassword = async (password: string): Promise<string> => {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, SCRYPT.keyLength, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), key.toString('base64')].join('$');
};

export const verifyPassword = async (password: string, stored: string): Promise<boolean> => {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(actual, expected);
};

/** Compares two strings in time that depends only on their lengths. */
export const constantTimeEquals = (a: string, b: string): boolean => {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
};

// the one-shot digest: about a quarter of createHash's time on a short text, and an API key is hashed on every call
export const md5Hex = (text: string): string => hash('md5', text, 'hex');
export const sha256Hex = (text: string): string => hash('sha256', text, 'hex');

/** 128 random bits as 32 lower-case hex characters. */
export const randomToken = (): string => randomBytes(16).toString('hex');

/** Whether `text` has the shape of a token made by {@link randomToken} (either case). */
export const isTokenText = (text: string): boolean => /^[0-9a-fA-F]{32}$/.test(text);
