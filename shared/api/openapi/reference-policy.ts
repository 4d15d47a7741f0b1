import { createHash } from 'node:crypto';

const INLINE_SCRIPT = /<script\b[^>]*>([\s\S]*?)<\/script>/g;

/**
 * What the page may load: its own inline scripts, by hash, its inline styles, data: images and fonts, and the
 * search worker Redoc starts from a blob; nothing from any origin, its own included.
 */
export const referencePagePolicy = (page: string): string => {
  const scripts = [...page.matchAll(INLINE_SCRIPT)].map(
    ([, source]) => `'sha256-${createHash('sha256').update(source!).digest('base64')}'`,
  );
  return [
    "default-src 'none'",
    // Redoc's bundle makes functions from text (its search index, a global lookup): blank page without it
    `script-src ${scripts.join(' ')} 'unsafe-eval'`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    'font-src data:',
    'worker-src blob:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
};
