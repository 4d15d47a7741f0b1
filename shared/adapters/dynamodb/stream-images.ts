import { exactNumbers, type Item } from './attribute-values';

/** A stream record the consumer can neither decode nor judge: retrying it can never succeed. */
export class UndecodableRecord extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'UndecodableRecord';
  }
}

const bytesOf = (value: unknown, path: string): Uint8Array => {
  // Lambda hands binary over as base64 text; the SDK's stream client as bytes
  if (typeof value === 'string') return Uint8Array.from(Buffer.from(value, 'base64'));
  if (value instanceof Uint8Array) return value;
  throw new UndecodableRecord(`${path}: binary that is neither base64 text nor bytes`);
};

const listOf = (value: unknown, path: string): unknown[] => {
  if (!Array.isArray(value)) throw new UndecodableRecord(`${path}: a list or set that is not an array`);
  return value;
};

const textOf = (value: unknown, path: string): string => {
  if (typeof value !== 'string') throw new UndecodableRecord(`${path}: text or a number that is not a string`);
  return value;
};

/** One attribute value, whatever shape a stream carries: every member DynamoDB defines, empty maps and sets included. */
const decodeValue = (value: unknown, path: string): unknown => {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new UndecodableRecord(`${path}: not an attribute value`);
  const members = Object.entries(value).filter(([, member]) => member !== undefined);
  if (members.length !== 1)
    throw new UndecodableRecord(`${path}: an attribute value with ${members.length} members (one expected)`);
  const [[type, member]] = members as [[string, unknown]];
  switch (type) {
    case 'S':
      return textOf(member, path);
    case 'N':
      return exactNumbers(textOf(member, path));
    case 'BOOL':
      if (typeof member !== 'boolean') throw new UndecodableRecord(`${path}: BOOL that is not a boolean`);
      return member;
    case 'NULL':
      return null;
    case 'B':
      return bytesOf(member, path);
    case 'M':
      return decodeImage(member, path);
    case 'L':
      return listOf(member, path).map((element, index) => decodeValue(element, `${path}[${index}]`));
    case 'SS':
      return new Set(listOf(member, path).map((element) => textOf(element, path)));
    case 'NS':
      return new Set(listOf(member, path).map((element) => exactNumbers(textOf(element, path))));
    case 'BS':
      return new Set(listOf(member, path).map((element) => bytesOf(element, path)));
    default:
      throw new UndecodableRecord(`${path}: an attribute value of unknown type ${JSON.stringify(type.slice(0, 20))}`);
  }
};

const decodeImage = (image: unknown, path: string): Item => {
  if (image === null || typeof image !== 'object' || Array.isArray(image))
    throw new UndecodableRecord(`${path || 'image'}: not a map of attribute values`);
  return Object.fromEntries(
    Object.entries(image).map(([name, value]) => [name, decodeValue(value, path ? `${path}.${name}` : name)]),
  );
};

/**
 * A stream record's image as plain values (numbers exact, as the table store reads them). Anything that is not an
 * attribute value DynamoDB defines is an `UndecodableRecord` naming where it is.
 */
export const streamItem = (image: unknown): Item => decodeImage(image, '');
