import { afterEach } from 'vitest';

/**
 * A green unit run prints no error-level log line and no warning of Powertools Metrics: a test whose code under test
 * writes one to the process's output fails, naming it. Such a line is either a fault the test should assert (capture
 * it, as `captured-output.ts` does) or noise the code would also write in Lambda. Lines a test captures itself never
 * reach the process's streams, and are not seen here.
 */
const UNWANTED = [
  /"level":"(ERROR|CRITICAL)"/,
  /^No application metrics to publish/m,
  /^This metric doesn't meet the requirements/m,
  /^Namespace should be defined/m,
  /^The dimension .* doesn't meet the requirements/m,
  /^Dimension ".*" has already been added/m,
];

// once per worker, however often the setup runs (files sharing a worker share the process's streams)
const shared = globalThis as { unwantedOutput?: string[] };
const seen = shared.unwantedOutput ?? [];

if (!shared.unwantedOutput) {
  shared.unwantedOutput = seen;
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      const text = String(chunk);
      if (UNWANTED.some((pattern) => pattern.test(text))) seen.push(text.trim().split('\n')[0]!.slice(0, 200));
      return write(chunk, ...rest);
    }) as typeof stream.write;
  }
}

afterEach(() => {
  const lines = seen.splice(0);
  if (lines.length > 0)
    throw new Error(`The test printed what a green run must not (capture and assert it instead): ${lines.join(' | ')}`);
});
