import { sequenceText } from '../../domain/delivery/counter-plan';

/**
 * A message group's marker as stored: a Binary value, `[n][the sequence: n bytes, big-endian][the day: 2 bytes]`
 * (the day, since 1970, until 2149). DynamoDB compares binaries byte by byte, unsigned, so byte order is sequence
 * order, as the domain's text order is: a longer sequence has a larger first byte, and a marker with its day sorts
 * after its bare sequence. 12 bytes for SQS's 20-digit sequence numbers, where the text took 46 characters.
 */
const DAY_BYTES = 2;
const MOST_DAYS = 0xffff;

const bytesOfHex = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex'));

/** The stored bytes of a domain marker (`<sequence>[@<day, base 36>]`) or of a bare sequence. */
export const markerBytes = (text: string): Uint8Array => {
  const [sequence = '', day] = text.split('@');
  const value = BigInt(sequence);
  const digits = value === 0n ? new Uint8Array(0) : bytesOfHex(value.toString(16));
  const bytes = new Uint8Array(1 + digits.length + (day === undefined ? 0 : DAY_BYTES));
  bytes[0] = digits.length;
  bytes.set(digits, 1);
  if (day !== undefined) {
    const days = Math.min(parseInt(day, 36), MOST_DAYS);
    bytes[1 + digits.length] = days >> 8;
    bytes[2 + digits.length] = days & 0xff;
  }
  return bytes;
};

/** The domain marker of stored bytes; `undefined` for anything this codec did not write. */
export const markerFromBytes = (value: unknown): string | undefined => {
  if (!(value instanceof Uint8Array) || value.length === 0) return undefined;
  const length = value[0]!;
  const rest = value.length - 1 - length;
  if ((rest !== 0 && rest !== DAY_BYTES) || (length > 0 && value[1] === 0)) return undefined;
  const digits = value.subarray(1, 1 + length);
  const sequence = sequenceText(length === 0 ? 0n : BigInt(`0x${Buffer.from(digits).toString('hex')}`));
  if (rest === 0) return sequence;
  const days = (value[1 + length]! << 8) | value[2 + length]!;
  return `${sequence}@${days.toString(36)}`;
};
