import { createHash } from 'node:crypto';
import { join } from 'node:path';

/** The variable naming the folder where a run keeps the stack templates it synthesized (`test/infra/template.ts`). */
export const TEMPLATE_CACHE_DIR = 'TEMPLATE_CACHE_DIR';

/** Where the run keeps the template of a context; no CDK here, so a reader of the cache does not load it. */
export const templateCacheFile = (directory: string, context: Record<string, unknown>): string => {
  const key = JSON.stringify(Object.entries(context).sort(([a], [b]) => a.localeCompare(b)));
  return join(directory, `${createHash('sha256').update(key).digest('hex').slice(0, 16)}.json`);
};
