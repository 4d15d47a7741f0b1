import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  CatalogRejectedError,
  DEMO_CATALOG_FILE,
  PortInUseError,
  startLocalService,
  type LocalService,
} from './local-service';
import { JavaMissingError } from './dynamodb-local';

// The Lambda runtime is Node.js 22; on a Node 20 laptop the SDK's support notice is noise.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const USAGE = `Usage: npm start -- [--port N] [--host H] [--data DIR] [--catalog FILE | --empty]
  --port     port to listen on (env PORT, default 3000)
  --host     address to bind (env HOST, default 127.0.0.1)
  --data     persist DynamoDB Local's data in DIR (env DATA_DIR; default: in memory)
  --catalog  load FILE instead of the demo catalog (env CATALOG_FILE)
  --empty    load no catalog`;

const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};

const options = (() => {
  try {
    return parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        data: { type: 'string' },
        catalog: { type: 'string' },
        empty: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }).values;
  } catch (error) {
    return fail(`${(error as Error).message}\n${USAGE}`);
  }
})();

if (options.help) {
  console.log(USAGE);
  process.exit(0);
}

const portText = options.port ?? process.env.PORT ?? '3000';
const port =
  /^\d{1,5}$/.test(portText) && Number(portText) <= 65535
    ? Number(portText)
    : fail(`Invalid port "${portText}": give a number from 0 to 65535.`);
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

try {
  service = await startLocalService({
    port,
    host: options.host ?? process.env.HOST ?? '127.0.0.1',
    dataDir: options.data ?? process.env.DATA_DIR,
    catalogFile,
    corsOrigins: (process.env.CORS_ORIGINS ?? '').split(',').filter(Boolean),
  });
  console.log(`Local API listening on ${service.url}`);
  if (catalogFile === DEMO_CATALOG_FILE) console.log(demoCredentials());
  else if (catalogFile) console.log(`Catalog loaded from ${catalogFile}`);
  console.log('Press Ctrl-C to stop.');
} catch (error) {
  if (error instanceof JavaMissingError || error instanceof PortInUseError || error instanceof CatalogRejectedError)
    fail(error.message);
  console.error(error);
  process.exit(1);
}
