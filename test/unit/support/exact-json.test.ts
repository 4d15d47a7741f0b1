import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExactNumber } from '../../../shared/domain/delivery/exact-units';
import { exactJson } from '../../../shared/support/exact-json';

const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);

/**
 * The writer as it was before the engine's serializer was let run: a replacer marks each exact number. An exact
 * number had no `toJSON` then, so the replacer saw it as the holder holds it: read there, as it was.
 */
const OLD_MARK = `\u0000exact-${randomUUID()}:`;
const OLD_MARKED = new RegExp(
  `"${JSON.stringify(OLD_MARK)
    .slice(1, -1)
    .replace(/[\\^$.*+?()[\]{}|-]/g, '\\$&')}(-?\\d+(?:\\.\\d+)?)"`,
  'g',
);
const writtenBefore = (value: unknown): string =>
  JSON.stringify(value, function (this: Record<string, unknown>, key, item: unknown) {
    const held = this[key];
    return held instanceof ExactNumber ? `${OLD_MARK}${held.text}` : item;
  }).replace(OLD_MARKED, '$1');

const exactNumbers = fc
  .tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.constantFrom(1n, 1000n))
  .map(([units, scale]) => ExactNumber.of(units, scale));

const leaves = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.constantFrom('\u0000exact-', '"', '\\u0000', '12'),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.date({ noInvalidDate: true }),
  exactNumbers,
);

const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaves,
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.string({ unit: 'binary', maxLength: 6 }), tie('value'), { maxKeys: 6 }),
  ),
}));

describe('the exact JSON writer', () => {
  it(`writes every value byte for byte as the replacer it replaced did (seed ${SEED})`, () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 6 }), value), (answer) => {
        expect(exactJson(answer)).toBe(writtenBefore(answer));
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });

  it('writes an exact number as its literal, however large, and as before outside the writer', () => {
    const answer = { total: new ExactNumber('123456789012345678901234567890'), budget: new ExactNumber('-0.5') };
    expect(exactJson(answer)).toBe('{"total":123456789012345678901234567890,"budget":-0.5}');
    expect(exactJson([new ExactNumber('7')])).toBe('[7]');
    expect(JSON.stringify(answer)).toBe('{"total":{"text":"123456789012345678901234567890"},"budget":{"text":"-0.5"}}');
    const quoted = JSON.stringify(answer, (_key, item: unknown) => (item instanceof ExactNumber ? item.text : item));
    expect(quoted).toBe('{"total":"123456789012345678901234567890","budget":"-0.5"}');
  });
});
