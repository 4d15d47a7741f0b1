import { mkdirSync, writeFileSync } from 'node:fs';
import { benchBulkRead } from './bulk-read';

// The Lambda runtime is Node.js 22; the SDK's notice about Node 20 is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const API_GATEWAY_TIMEOUT_MS = 29_000;
const MEMORY_BUDGET_BYTES = 256 * 1024 * 1024;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const bulk = await benchBulkRead();
const checks = [
  { name: '10,000-campaign bulk read: wall time', value: `${(bulk.wallMs / 1000).toFixed(2)} s`, budget: '< 29 s (API Gateway limit)', ok: bulk.wallMs < API_GATEWAY_TIMEOUT_MS && bulk.rowsReturned === bulk.campaigns },
  { name: '10,000-campaign bulk read: peak RSS of the server', value: `${mb(bulk.peakRssBytes)} (${mb(bulk.rssBeforeBytes)} before)`, budget: '< 256 MB', ok: bulk.peakRssBytes < MEMORY_BUDGET_BYTES },
  { name: '10,000-campaign bulk read: response size', value: mb(bulk.responseBytes), budget: '(reported)', ok: true },
];

console.log('\nDelivery Limits benchmarks (DynamoDB Local, this machine)\n');
console.table(checks.map(({ name, value, budget, ok }) => ({ measure: name, value, budget, result: ok ? 'ok' : 'OVER BUDGET' })));
mkdirSync('bench', { recursive: true });
writeFileSync('bench/results.json', `${JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, bulkRead: bulk }, null, 2)}\n`);
console.log('Results written to bench/results.json');
process.exit(checks.every((check) => check.ok) ? 0 : 1);
