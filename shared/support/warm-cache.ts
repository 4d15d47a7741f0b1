import type { Clock } from '../ports/clock';

/**
 * How long a container keeps what it resolved (a principal, a caller's grants) before resolving it again: the
 * answer to "how long after I revoke a key, deactivate a user or remove a share does it still work" (API
 * Gateway's own authorizer cache defaults to 300 s). Replay protection is never cached.
 */
export const WARM_CACHE_TTL_MS = 60_000;
const MAX_ENTRIES = 1_000;

const caches = new Set<WarmCache<unknown>>();

/** A bounded, time-limited memory of one container: at most MAX_ENTRIES, each for at most WARM_CACHE_TTL_MS. */
export class WarmCache<Value> {
  private readonly entries = new Map<string, { value: Value; storedAt: number; until: number }>();

  constructor(private readonly ttlMs = WARM_CACHE_TTL_MS) {
    caches.add(this as WarmCache<unknown>);
  }

  /** The value while it is fresh by `clock`; a clock moved back before it was stored counts as stale too. */
  get(key: string, clock: Clock): Value | undefined {
    const entry = this.entries.get(key);
    const now = clock.now().getTime();
    if (!entry) return undefined;
    if (now < entry.storedAt || now >= entry.until) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps `value` until the bound, or until `until` (ms) when that is sooner (a session's end). */
  set(key: string, value: Value, clock: Clock, until = Number.POSITIVE_INFINITY): void {
    const now = clock.now().getTime();
    this.entries.delete(key);
    this.entries.set(key, { value, storedAt: now, until: Math.min(now + this.ttlMs, until) });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  /** The value, resolved with `resolve` when it is not fresh in memory. */
  async through(key: string, clock: Clock, resolve: () => Promise<Value>): Promise<Value> {
    const known = this.get(key, clock);
    if (known !== undefined) return known;
    const value = await resolve();
    this.set(key, value, clock);
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}

/** Forgets everything every warm cache of this process holds (the local server, after a catalog import). */
export const clearWarmCaches = (): void => {
  for (const cache of caches) cache.clear();
};
