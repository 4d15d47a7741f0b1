import { vi } from 'vitest';

/**
 * The SDK waits a random share of its back-off (`Math.random()` times 1 s, 2 s, 4 s … for a throttled call) before
 * each retry: pinned at none until the test's mocks are restored, so that a test of retries does not sit through
 * seconds of timers. Which calls are retried, how often, and what is answered in the end stay the SDK's.
 */
export const withoutBackOffWaits = () => vi.spyOn(Math, 'random').mockReturnValue(0);
