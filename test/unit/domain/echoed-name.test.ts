import { describe, expect, it } from 'vitest';
import { echoedName, MAX_ECHOED_NAME_LENGTH } from '../../../shared/domain/echoed-name';

describe('echoedName', () => {
  it('repeats a name of up to 64 characters as it is', () => {
    expect(MAX_ECHOED_NAME_LENGTH).toBe(64);
    for (const name of ['colour', 'x'.repeat(64)]) expect(echoedName(name)).toBe(name);
  });

  it('cuts a longer one to 64 characters and an ellipsis', () => {
    expect(echoedName('x'.repeat(1_000_000))).toBe(`${'x'.repeat(64)}…`);
  });

  it('never splits a character written as two UTF-16 units', () => {
    const name = `${'x'.repeat(63)}😀tail`;
    expect(echoedName(name)).toBe(`${'x'.repeat(63)}…`);
    expect(echoedName(`${'x'.repeat(62)}😀tail`)).toBe(`${'x'.repeat(62)}😀…`);
  });
});
