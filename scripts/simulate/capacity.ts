import { failWith } from '../command-line';

const USAGE = `Usage: npm run capacity -- [-c key=value …] [--json]
  Prints every account quota the configured load needs (table and account write units, Lambda concurrency, API
  Gateway, SQS, EventBridge, SES), computed from cdk.json's context and the -c values, as cdk synth reads them:
  a setting synth would refuse (out of bounds, contradicting another, or one the stack does not read) is refused.
  --json prints the push path instead, at 1×, 10× and 100× the configured load: the table stream's shards, the
  stream consumer's containers needed and reserved, the webhooks' deliveries a second and the write units of the
  busiest webhook partition (a simulated run, a few seconds).`;

const args = process.argv.slice(2);
if (args.includes('--help')) {
  console.log(USAGE);
  process.exit(0);
}
const json = args.includes('--json');
const unknown = args.find(
  (arg, index) =>
    arg.startsWith('-') &&
    !['-c', '--context', '--json'].includes(arg) &&
    !['-c', '--context'].includes(args[index - 1] ?? ''),
);
if (unknown) failWith(`Unknown option ${unknown}: npm run capacity takes -c key=value, --json, --help.`);

// loaded once the arguments are read: --help and a mistyped option answer without loading the tool's work
const { SettingError } = await import('../../infra/cdk/app');
const { quotaChecklistOf, stackSettings } = await import('./quotas');
const { pushPathLoads } = await import('./push-table');

try {
  const settings = args.filter((arg) => arg !== '--json');
  console.log(json ? JSON.stringify(pushPathLoads(stackSettings(settings).load)) : quotaChecklistOf(settings));
} catch (error) {
  if (!(error instanceof SettingError)) throw error;
  console.error(error.message);
  process.exit(1);
}
