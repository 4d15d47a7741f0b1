import '../../scripts/quiet-sdk-notice';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describeFailure, failWith, parsePort, readArguments, readJsonFile } from '../../scripts/command-line';
import { corsPolicyOf } from '../../shared/http/cors';
import { DEMO_CATALOG_FILE } from './demo-catalog-file';
import { requireJava } from './dynamodb-local';
import type { LocalService } from './local-service';
import { CatalogRejectedError, JavaMissingError, PortInUseError } from './start-failures';

const USAGE = `Usage: npm start -- [--port N] [--host H] [--data DIR] [--catalog FILE | --empty]
  --port     port to listen on (env PORT, default 3000)
  --host     address to bind (env HOST, default 127.0.0.1)
  --data     persist DynamoDB Local's data in DIR (env DATA_DIR; default: in memory)
  --catalog  load FILE instead of the demo catalog (env CATALOG_FILE)
  --empty    load no catalog
  env LOG_LEVEL: info (default: one short line per request), debug (JSON lines, the access log tools read),
  warn, error or silent`;

const { values: options } = readArguments(USAGE, {
  port: { type: 'string' },
  host: { type: 'string' },
  data: { type: 'string' },
  catalog: { type: 'string' },
  empty: { type: 'boolean' },
});

if (options.empty && options.catalog) failWith('Give --catalog FILE or --empty, not both.');

const port = parsePort(options.port ?? process.env.PORT ?? '3000');
const host = options.host ?? process.env.HOST ?? '127.0.0.1';
const catalogFile = options.empty ? null : (options.catalog ?? process.env.CATALOG_FILE ?? DEMO_CATALOG_FILE);

const demoCredentials = (): string => {
  const catalog = JSON.parse(readFileSync(DEMO_CATALOG_FILE, 'utf8')) as {
    users: { username: string; password: string; apiKeys?: string[]; role?: string }[];
  };
  const lines = catalog.users.map(
    (user) =>
      `  ${user.username.padEnd(10)} password ${user.password.padEnd(16)} X-Api-Key ${user.apiKeys?.[0] ?? '-'}  (${user.role ?? ''})`,
  );
  return ['Demo users (demo catalog):', ...lines].join('\n');
};

let service: LocalService | undefined;
let stopping = false;
const shutdown = async (code: number) => {
  if (stopping) return;
  stopping = true;
  await service?.stop().catch(() => undefined);
  process.exit(code);
};

process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
process.on('uncaughtException', (error) => {
  console.error(error);
  void shutdown(1);
});

/** Fails at once, before Java starts, when the port is taken. */
const checkPortFree = () =>
  new Promise<void>((resolve, reject) => {
    if (port === 0) return resolve();
    const probe = createServer();
    probe.once('error', () => reject(new PortInUseError(host, port)));
    probe.listen(port, host, () => probe.close(() => resolve()));
  });

/** Fails at once, before Java starts, when the catalog cannot be read or is malformed. */
const checkCatalog = async () => {
  if (!catalogFile || catalogFile === DEMO_CATALOG_FILE) return;
  const { parseCatalog } = await import('../../shared/catalog/catalog-validation');
  const parsed = parseCatalog(await readJsonFile(catalogFile));
  if (parsed.problems.length > 0) throw new CatalogRejectedError(catalogFile, parsed.problems);
};

try {
  await checkPortFree();
  await checkCatalog();
  requireJava();
  console.log('Starting DynamoDB Local (Java)…');
  // loaded once nothing stops the start: a refused one answers without loading the service
  const { startLocalService } = await import('./local-service');
  service = await startLocalService({
    port,
    host,
    dataDir: options.data ?? process.env.DATA_DIR,
    catalogFile,
    corsOrigins: corsPolicyOf(process.env.CORS_ORIGINS).allowedOrigins,
    progress: (step) => console.log(step),
  });
  console.log(`Local API listening on ${service.url}`);
  if (catalogFile === DEMO_CATALOG_FILE) console.log(demoCredentials());
  else if (catalogFile) console.log(`Catalog loaded from ${catalogFile}`);
  console.log('Press Ctrl-C to stop.');
} catch (error) {
  if (error instanceof JavaMissingError || error instanceof PortInUseError || error instanceof CatalogRejectedError)
    failWith(error.message);
  failWith(describeFailure(error));
}
