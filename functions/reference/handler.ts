import { readFileSync } from 'node:fs';
import { createReferenceHandler } from './reference-handler';

/** The page and document written beside the bundle when it is built (scripts/build-reference.ts). */
const read = (file: string) => readFileSync(new URL(file, import.meta.url), 'utf8');

export const handler = createReferenceHandler({ page: read('./reference.html'), document: read('./openapi.json') });
