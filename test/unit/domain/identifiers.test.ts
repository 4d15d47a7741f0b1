import { describe, expect, it } from 'vitest';
import { parsePositiveId } from '../../../shared/domain/identifiers';

describe('ids', () => {
  it('are positive integers of at most 15 digits, written in plain digits', () => {
    expect(parsePositiveId('1')).toBe(1);
    expect(parsePositiveId('999999999999999')).toBe(999_999_999_999_999);
    for (const bad of [undefined, '', '0', '-1', '1.5', '1e3', ' 1', '0x10', '1000000000000000'])
      expect(parsePositiveId(bad), String(bad)).toBeUndefined();
  });
});
