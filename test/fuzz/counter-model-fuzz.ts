import '../../scripts/quiet-sdk-notice';
import type { LocalService } from '../../infra/local/local-service';
import { failWith, parseWholeNumber, readArguments } from '../../scripts/command-line';

const USAGE = `Usage: npm run fuzz -- [--runs N] [--workers W] [--seed S] [--path P]
  Runs N generated delivery cases (default 10000) through the delivery recorder on a DynamoDB Local of its own
  and compares every counter with the reference model (test/model/). W workers (default 2), each with a table
  of its own, run N/W cases each, worker i with seed S+i. Prints cases per second as it goes; on a failure, the
  shrunk counterexample and the command that replays it: npm run fuzz -- --seed S --path P (one worker).`;

const { values } = readArguments(USAGE, {
  runs: { type: 'string' },
  workers: { type: 'string' },
  seed: { type: 'string' },
  path: { type: 'string' },
});
const runs = parseWholeNumber('runs', values.runs ?? '10000', 1);
const workers = values.path !== undefined ? 1 : parseWholeNumber('workers', values.workers ?? '2', 1);
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : parseWholeNumber('seed', values.seed);
if (values.path !== undefined && values.seed === undefined) failWith('--path replays a run: give its --seed too.');

// loaded once the arguments are read: --help and a mistyped option answer without loading the tool's work
const { default: fc } = await import('fast-check');
const { startLocalService } = await import('../../infra/local/local-service');
const { FUZZ_SIZE, generatedCase } = await import('../model/generated-case');
const { checkCase, prepareService } = await import('../support/counter-model-property');

let started = Date.now();
let cases = 0;
const rate = () => (cases / ((Date.now() - started) / 1000)).toFixed(1);

/** One worker: its own table, its own seed, its share of the runs; true when every case matched the model. */
const work = async (service: LocalService, index: number): Promise<boolean> => {
  const property = fc.asyncProperty(generatedCase(FUZZ_SIZE), async (generated) => {
    await checkCase(service, generated, `w${index}-case${++cases}`);
    if (cases % 500 === 0) console.log(`${cases} cases, ${rate()} cases/s`);
  });
  const details = await fc.check(property, {
    numRuns: Math.ceil(runs / workers),
    seed: seed + index,
    ...(values.path !== undefined ? { path: values.path, endOnFailure: true } : {}),
  });
  if (!details.failed) return true;
  console.error(fc.defaultReportMessage(details));
  console.error(String(details.errorInstance));
  console.error(`Replay: npm run fuzz -- --seed ${details.seed} --path ${details.counterexamplePath}`);
  return false;
};

const first = await startLocalService({ catalogFile: null, port: 0 });
const services = [first];
try {
  for (let index = 1; index < workers; index++)
    services.push(
      await startLocalService({
        catalogFile: null,
        port: 0,
        dynamoEndpoint: first.dynamoEndpoint,
        tableName: `fuzz-${index}`,
      }),
    );
  await Promise.all(services.map(prepareService));
  console.log(`Fuzzing the delivery counters: ${runs} cases in ${workers} worker(s), seed ${seed}`);
  started = Date.now();
  const passed = await Promise.all(services.map((service, index) => work(service, index)));
  if (passed.every(Boolean))
    console.log(`${cases} cases, 0 mismatches, in ${(Date.now() - started) / 1000} s: ${rate()} cases/s`);
  else process.exitCode = 1;
} finally {
  for (const service of services.reverse()) await service.stop();
}
