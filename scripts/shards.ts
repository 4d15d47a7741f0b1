import './quiet-sdk-notice';
import { CommandFailure, readArguments, runTool } from './command-line';

const USAGE = `Usage: npm run shards -- --type TYPE --id ID --count N
  Shards the delivery counters of one entity (advertiser, campaign, banner, site, placement) into N items
  (2 to 96), in TABLE_NAME (the stack output TableName), or raises the count it has to N. A count is never
  lowered. AWS credentials come from the environment.
  Locally (npm start): POST /_local/shards with {"type":"advertiser","id":1,"shards":16} does the same
  (docs/local-server.md).`;

const { values } = readArguments(USAGE, {
  type: { type: 'string' },
  id: { type: 'string' },
  count: { type: 'string' },
});

// loaded once the arguments are read: --help and a mistyped option answer without loading the tool's work
const { entityExists, setShardCount } = await import('../shared/adapters/dynamodb/shard-count-change');
const { parseShardRequest } = await import('../shared/domain/delivery/shard-request');
const { storeFromEnvironment } = await import('../shared/runtime/dependencies');

await runTool(async () => {
  const parsed = parseShardRequest({ type: values.type, id: values.id, shards: values.count });
  if (!parsed.ok)
    throw new CommandFailure(
      Object.entries(parsed.errors)
        .map(([name, reason]) => `--${name === 'shards' ? 'count' : name} ${reason}`)
        .join('; ') + '.',
    );
  if (!process.env.TABLE_NAME)
    throw new CommandFailure('Set TABLE_NAME to the stack output TableName (locally, POST /_local/shards does this).');
  const { type, id, shards } = parsed.request;
  const store = storeFromEnvironment();
  if (!(await entityExists(store, type, id)))
    throw new CommandFailure(`--id ${id}: there is no ${type.toLowerCase()} ${id}.`);
  const entity = `${type.toLowerCase()} ${id}`;
  const answer = await setShardCount(store, type, id, shards);
  if (answer.refused)
    throw new CommandFailure(`--count ${shards}: ${entity} has ${answer.shards} shards, and a count is never lowered.`);
  console.log(
    answer.from === shards
      ? `${entity}: counters in ${shards} shards already; nothing changed.`
      : `${entity}: counters in ${shards} shards (were ${answer.from === 1 ? 'one item' : `${answer.from} shards`}).`,
  );
});
