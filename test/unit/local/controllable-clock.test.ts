import { describe, expect, it } from 'vitest';
import { ControllableClock } from '../../../infra/local/controllable-clock';

describe('controllable clock', () => {
  it('follows real time until fixed, then moves only when told', () => {
    const clock = new ControllableClock();
    expect(Math.abs(clock.now().getTime() - Date.now())).toBeLessThan(1000);
    clock.set(new Date('2026-11-22T10:00:00Z'));
    expect(clock.now().toISOString()).toBe('2026-11-22T10:00:00.000Z');
    clock.advance(61);
    expect(clock.now().toISOString()).toBe('2026-11-22T10:01:01.000Z');
    clock.set(null);
    clock.advance(3600);
    expect(clock.now().getTime() - Date.now()).toBeGreaterThan(3590_000);
  });
});
