import { failWith } from '../command-line';

const USAGE = `Usage: npm run capacity -- [-c key=value …]
  Prints every account quota the configured load needs (table and account write units, Lambda concurrency, API
  Gateway, SQS, EventBridge, SES), computed from cdk.json's context and the -c values, as cdk synth reads them:
  a setting synth would refuse (out of bounds, contradicting another, or one the stack does not read) is refused.`;

const args = process.argv.slice(2);
if (args.includes('--help')) {
  console.log(USAGE);
  process.exit(0);
}
const unknown = args.find(
  (arg, index) =>
    arg.startsWith('-') && !['-c', '--context'].includes(arg) && !['-c', '--context'].includes(args[index - 1] ?? ''),
);
if (unknown) failWith(`Unknown option ${unknown}: npm run capacity takes -c key=value, --help.`);

// loaded once the arguments are read: --help and a mistyped option answer without loading the tool's work
const { SettingError } = await import('../../infra/cdk/app');
const { quotaChecklistOf } = await import('./quotas');

try {
  console.log(quotaChecklistOf(args));
} catch (error) {
  if (!(error instanceof SettingError)) throw error;
  console.error(error.message);
  process.exit(1);
}
