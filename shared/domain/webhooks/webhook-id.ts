import { randomBytes } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const ID_CHARACTERS = 20;
const ID_PATTERN = /^wh_[a-z2-7]{20}$/;

/** `wh_` and 20 random base32 characters (100 bits): an id no one can guess or count through. */
export const newWebhookId = (bytes: Uint8Array = randomBytes(ID_CHARACTERS)): string =>
  // 256 is a multiple of 32, so each byte's low five bits are uniform
  `wh_${Array.from(bytes.subarray(0, ID_CHARACTERS), (byte) => BASE32[byte & 31]).join('')}`;

export const isWebhookId = (text: string | undefined): text is string => text !== undefined && ID_PATTERN.test(text);
