import { randomUUID } from 'node:crypto';
import { ExactNumber } from '../domain/delivery/exact-units';

/** Marks an exact number during stringification; random per process, so that no client text can imitate it. */
const MARK = `\u0000exact-${randomUUID()}:`;
const MARKED = new RegExp(
  `"${JSON.stringify(MARK)
    .slice(1, -1)
    .replace(/[\\^$.*+?()[\]{}|-]/g, '\\$&')}(-?\\d+(?:\\.\\d+)?)"`,
  'g',
);

/** JSON.stringify, but an ExactNumber is written as the number literal it holds, whatever its size or precision. */
export const exactJson = (value: unknown): string =>
  JSON.stringify(value, (_key, item: unknown) => (item instanceof ExactNumber ? `${MARK}${item.text}` : item)).replace(
    MARKED,
    '$1',
  );
