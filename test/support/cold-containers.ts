import { clearWarmCaches } from '../../shared/support/warm-cache';

/**
 * A setup file of the `integration` project, whose workers run several files in one module registry: each file's
 * service starts with its functions' containers as cold as in a worker of its own, so no file meets what another
 * file's requests left in a warm cache (principals, grants, shard counts, webhook subscriptions).
 */
clearWarmCaches();
