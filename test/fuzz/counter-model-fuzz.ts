import '../../scripts/quiet-sdk-notice';
import fc from 'fast-check';
import { startLocalService } from '../../infra/local/local-service';
import { failWith, readArguments } from '../../scripts/command-line';
import { FUZZ_SIZE, generatedCase } from '../model/generated-case';
import { checkCase, prepareService } from '../support/counter-model-property';

const USAGE = `Usage: npm run fuzz -- [--runs N] [--seed S] [--path P]
  Runs N generated delivery cases (default 10000) through the delivery recorder on a DynamoDB Local of its own
  and compares every counter with the reference model (test/model/). Prints cases per second as it goes; on a
  failure, the shrunk counterexample and the seed and path that replay it: npm run fuzz -- --seed S --path P.`;

const { values } = readArguments(USAGE, {
  runs: { type: 'string' },
  seed: { type: 'string' },
  path: { type: 'string' },
});
const whole = (name: string, text: string | undefined, fallback?: number): number | undefined => {
  if (text === undefined) return fallback;
  if (!/^-?\d+$/.test(text)) return failWith(`--${name} must be a whole number, not ${text}`);
  return Number(text);
};
const runs = whole('runs', values.runs, 10_000)!;
const seed = whole('seed', values.seed) ?? Date.now() ^ (Math.random() * 0x100000000);
if (values.path !== undefined && values.seed === undefined) failWith('--path replays a run: give its --seed too.');

const service = await startLocalService({ catalogFile: null, port: 0 });
const started = Date.now();
let cases = 0;
const rate = () => (cases / ((Date.now() - started) / 1000)).toFixed(1);
try {
  await prepareService(service);
  console.log(`Fuzzing the delivery counters: ${runs} cases, seed ${seed}`);
  const property = fc.asyncProperty(generatedCase(FUZZ_SIZE), async (generated) => {
    await checkCase(service, generated, `case${++cases}`);
    if (cases % 500 === 0) console.log(`${cases} cases, ${rate()} cases/s`);
  });
  const details = await fc.check(property, {
    numRuns: runs,
    seed,
    ...(values.path !== undefined ? { path: values.path, endOnFailure: true } : {}),
  });
  if (details.failed) {
    console.error(fc.defaultReportMessage(details));
    console.error(String(details.errorInstance));
    console.error(`Replay: npm run fuzz -- --seed ${details.seed} --path ${details.counterexamplePath}`);
    process.exitCode = 1;
  } else
    console.log(`${details.numRuns} cases, 0 mismatches, in ${(Date.now() - started) / 1000} s: ${rate()} cases/s`);
} finally {
  await service.stop();
}
