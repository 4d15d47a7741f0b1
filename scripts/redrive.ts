import './quiet-sdk-notice';
import { CommandFailure, readArguments, runTool } from './command-line';

const USAGE = `Usage: npm run redrive -- --queue-url URL [--dry-run]
  Replays the delivery dead-letter queue (--queue-url: the stack output DeliveryDeadLetterQueueUrl) into the
  counters of TABLE_NAME (the stack output TableName), once the cause of the refused writes is fixed. Each dead
  letter counts once, on the counter items that did not take it; running it again changes nothing. A replay
  refused again goes back to the queue. --dry-run lists what would be replayed and changes nothing (the messages
  it read stay hidden for 5 minutes). AWS credentials come from the environment.
  Locally (npm start): POST /_local/redrive replays the local server's dead letters the same way
  (docs/local-server.md).`;

const { values } = readArguments(USAGE, { 'queue-url': { type: 'string' }, 'dry-run': { type: 'boolean' } });

// loaded once the arguments are read: --help and a mistyped option answer without loading the tool's work
const { SQSClient } = await import('@aws-sdk/client-sqs');
const { recorderOptionsFromEnvironment } = await import('../functions/delivery-recorder/handler');
const { SqsDeadLetters } = await import('../shared/adapters/sqs/sqs-dead-letters');
const { redriveDeadLetters } = await import('../shared/delivery/redrive');
const { systemClock } = await import('../shared/ports/clock');
const { storeFromEnvironment } = await import('../shared/runtime/dependencies');
const { redriveQueue } = await import('./redrive-queue');

await runTool(async () => {
  const queueUrl = values['queue-url'];
  if (!queueUrl) throw new CommandFailure('Name the queue: --queue-url URL (the delivery dead-letter queue).');
  if (!/^https:\/\/\S+$/.test(queueUrl))
    throw new CommandFailure(`--queue-url must be an SQS queue URL (https://sqs.…), not "${queueUrl}".`);
  if (!process.env.TABLE_NAME)
    throw new CommandFailure('Set TABLE_NAME to the stack output TableName (locally, POST /_local/redrive does this).');
  const client = new SQSClient({});
  const ports = {
    store: storeFromEnvironment(),
    clock: systemClock,
    deadLetters: new SqsDeadLetters(client, queueUrl),
  };
  const options = recorderOptionsFromEnvironment();
  const run = await redriveQueue(
    client,
    queueUrl,
    (letters) => redriveDeadLetters(ports, letters, options),
    values['dry-run'] === true,
  );
  for (const { messageId, targets } of run.wouldReplay)
    console.log(`would replay ${messageId} to ${targets.join(', ')}`);
  console.log(
    `replayed ${run.replayed}, dead-lettered again ${run.deadLetteredAgain}, left to retry ${run.failed}, ` +
      `not replayable (no details) ${run.notReplayable}`,
  );
  if (run.failed > 0 || run.deadLetteredAgain > 0) process.exitCode = 1;
});
