import { fileURLToPath } from 'node:url';

/** The catalog a local service loads unless told otherwise: the demo users, partners and entities. */
export const DEMO_CATALOG_FILE = fileURLToPath(new URL('./demo-catalog.json', import.meta.url));
