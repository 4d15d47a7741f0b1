import './quiet-sdk-notice';
import { SQSClient } from '@aws-sdk/client-sqs';
import { CommandFailure, readArguments, runTool } from './command-line';
import { replayWebhookDeadLetters } from './webhook-replay-queue';

const USAGE = `Usage: npm run webhooks -- replay (--dlq-url URL --queue-url URL | --local URL) [--dry-run]
  Sends the dead-lettered webhook deliveries back to the deliveries queue, each as it was: it keeps its
  webhook-id, so a partner that got it before drops the repeat. Run it once the cause is fixed (the endpoint
  answers again, a subscription disabled automatically is turned back on). On AWS: --dlq-url is the stack output
  WebhookDeadLetterQueueUrl, --queue-url WebhookDeliveriesQueueUrl; a delivery leaves the dead-letter queue only
  once the deliveries queue has it. --dry-run counts what would be replayed and changes nothing (the messages it
  read are visible again once counted). Against the local server: --local http://127.0.0.1:3000 (with --dry-run,
  the deliveries its WebhookDeliveriesDlq holds are counted, and none is replayed). AWS credentials come from the
  environment.`;

const { values, positionals } = readArguments(
  USAGE,
  {
    'dlq-url': { type: 'string' },
    'queue-url': { type: 'string' },
    local: { type: 'string' },
    'dry-run': { type: 'boolean' },
  },
  true,
);

const sqsUrl = (option: string, text: string | undefined): string => {
  if (!text) throw new CommandFailure(`Name both queues: --dlq-url URL --queue-url URL (or --local URL).`);
  if (!/^https:\/\/\S+$/.test(text))
    throw new CommandFailure(`--${option} must be an SQS queue URL (https://sqs.…), not "${text}".`);
  return text;
};

/** The local server's dead-letter queue of deliveries, as `GET /_local/dead-letters` lists every queue's. */
const LOCAL_DEAD_LETTERS = 'WebhookDeliveriesDlq';

const callLocal = async (base: string, path: string, init: RequestInit = {}): Promise<unknown> => {
  const response = await fetch(new URL(path, base), init).catch(() => {
    throw new CommandFailure(`No local server answers at ${base}: start it with npm start, or fix --local.`);
  });
  if (!response.ok) throw new CommandFailure(`The local server answered ${response.status} to ${path}.`);
  return response.json();
};

/** The local replay, or on a dry run only the count of what it would replay: nothing is sent or attempted. */
const replayLocally = async (base: string, dryRun: boolean): Promise<void> => {
  if (!/^https?:\/\/\S+$/.test(base))
    throw new CommandFailure(`--local must be the local server's URL, not "${base}".`);
  if (dryRun) {
    const letters = (await callLocal(base, '/_local/dead-letters')) as { queue: string }[];
    console.log(`would replay ${letters.filter((letter) => letter.queue === LOCAL_DEAD_LETTERS).length}`);
    return;
  }
  const { replayed } = (await callLocal(base, '/_local/webhook-replay', { method: 'POST' })) as { replayed: number };
  console.log(`replayed ${replayed}`);
};

await runTool(async () => {
  if (positionals.length !== 1 || positionals[0] !== 'replay')
    throw new CommandFailure('Name the command: npm run webhooks -- replay … (see --help).');
  if (values.local !== undefined) return replayLocally(values.local, values['dry-run'] === true);
  const from = sqsUrl('dlq-url', values['dlq-url']);
  const to = sqsUrl('queue-url', values['queue-url']);
  const run = await replayWebhookDeadLetters(new SQSClient({}), { from, to, dryRun: values['dry-run'] === true });
  console.log(
    `${values['dry-run'] ? 'would replay' : 'replayed'} ${run.replayed}, refused by SQS ${run.failed}, ` +
      `sent but still dead-lettered ${run.notDeleted}`,
  );
  if (run.failed > 0 || run.notDeleted > 0) process.exitCode = 1;
});
