import { describe, expect, it } from 'vitest';
import {
  ExactNumber,
  textFromUnits,
  unitsFromCap,
  unitsFromText,
} from '../../../../shared/domain/delivery/exact-units';
import { exactJson } from '../../../../shared/support/exact-json';

describe('exact units', () => {
  it('read decimal text into BigInt units and back, with no binary floating point', () => {
    expect(unitsFromText('9999999999999.999', 1000n)).toBe(9_999_999_999_999_999n);
    expect(textFromUnits(9_999_999_999_999_999n, 1000n)).toBe('9999999999999.999');
    expect(textFromUnits(1500n, 1000n)).toBe('1.5');
    expect(textFromUnits(1000n, 1000n)).toBe('1');
    expect(unitsFromText('123456789012345678901234567890', 1n)).toBe(123456789012345678901234567890n);
    expect(unitsFromText('not a number', 1n)).toBe(0n);
    expect(unitsFromCap(9_999_999_999.999, 1000n)).toBe(9_999_999_999_999n);
  });

  it('render in JSON as the number literal they hold', () => {
    expect(exactJson({ budget: new ExactNumber('9999999999999.999'), name: 'x' })).toBe(
      '{"budget":9999999999999.999,"name":"x"}',
    );
  });
});
