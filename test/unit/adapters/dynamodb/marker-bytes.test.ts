import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markerBytes, markerFromBytes } from '../../../../shared/adapters/dynamodb/marker-bytes';
import { sequenceText } from '../../../../shared/domain/delivery/counter-plan';
import { markerText } from '../../../../shared/domain/delivery/group-markers';

const seed = Date.now();
console.log(`marker-bytes property seed: ${seed}`);

/** DynamoDB's order of Binary values: byte by byte, each byte unsigned, a prefix first. */
const compareBytes = (left: Uint8Array, right: Uint8Array): number => {
  for (let index = 0; index < Math.min(left.length, right.length); index++)
    if (left[index] !== right[index]) return left[index]! - right[index]!;
  return left.length - right.length;
};
const sign = (value: number): number => Math.sign(value);
const compareText = (left: string, right: string): number => (left < right ? -1 : left > right ? 1 : 0);

/** SQS sequence numbers: 128 bits at most; real ones are 20 digits. */
const sequence = fc.oneof(
  fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }),
  fc.bigInt({ min: 10n ** 19n, max: 10n ** 20n - 1n }),
  fc.bigInt({ min: 0n, max: 300n }),
);
const instant = fc.integer({ min: 0, max: Date.parse('2149-01-01T00:00:00Z') }).map((ms) => new Date(ms));
const bareSequence = sequence.map((value) => sequenceText(value));
const domainMarker = fc.oneof(
  bareSequence,
  fc.tuple(sequence, instant).map(([value, at]) => markerText(sequenceText(value), at)),
);

describe('a marker as stored bytes', () => {
  it('reads back as the marker it stores', () => {
    fc.assert(
      fc.property(domainMarker, (marker) => {
        expect(markerFromBytes(markerBytes(marker))).toBe(marker);
      }),
      { seed },
    );
  });

  it('orders against a sequence as the domain does, so that conditions compare as the planner does', () => {
    fc.assert(
      fc.property(domainMarker, bareSequence, (left, right) => {
        expect(sign(compareBytes(markerBytes(left), markerBytes(right)))).toBe(compareText(left, right));
      }),
      { seed },
    );
  });

  it('takes 12 bytes for an SQS sequence number of 20 digits with its day', () => {
    const marker = markerText(sequenceText(18_849_496_460_467_696_128n), new Date('2026-11-25T12:00:00Z'));
    expect(markerBytes(marker)).toHaveLength(12);
  });

  it('reads nothing from bytes it did not write, and never fails', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 24 }), (bytes) => {
        const marker = markerFromBytes(bytes);
        if (marker !== undefined) expect(markerBytes(marker)).toEqual(bytes);
      }),
      { seed },
    );
    for (const value of ['0001@a', 12, null, undefined, new Uint8Array(0)])
      expect(markerFromBytes(value)).toBe(undefined);
  });
});
