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

let writing = false;

/**
 * An exact number marks itself through `toJSON` rather than a replacer: any replacer turns off the engine's own
 * serializer for the whole value, which then took twice as long for an answer. Outside `exactJson` it gives
 * itself back, so that any other serializer, and any other replacer, sees it as before.
 */
Object.defineProperty(ExactNumber.prototype, 'toJSON', {
  value(this: ExactNumber): unknown {
    return writing ? `${MARK}${this.text}` : this;
  },
});

/** JSON.stringify, but an ExactNumber is written as the number literal it holds, whatever its size or precision. */
export const exactJson = (value: unknown): string => {
  writing = true;
  try {
    return JSON.stringify(value).replace(MARKED, '$1');
  } finally {
    writing = false;
  }
};
