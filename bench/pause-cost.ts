import { median } from './percentile';

/** What a pause costs code on this machine now: the same work timed back to back and after a busy wait (µs). */
export interface PauseCost {
  backToBackUs: number;
  afterPauseUs: number;
  /** The median over the rounds of each round's after-pause time over its back-to-back time. */
  ratio: number;
}

const FUNCTIONS = 400;

/** Each round's medians, back to back and after a pause, brought to one figure each. */
export const pauseCostOf = (rounds: readonly { backToBackUs: number; afterPauseUs: number }[]): PauseCost => ({
  backToBackUs: Math.round(median(rounds.map((round) => round.backToBackUs)) * 10) / 10,
  afterPauseUs: Math.round(median(rounds.map((round) => round.afterPauseUs)) * 10) / 10,
  ratio: Math.round(median(rounds.map((round) => round.afterPauseUs / round.backToBackUs)) * 100) / 100,
});

/**
 * A fixed workload with a footprint of its own: 400 functions, each compiled from a source of its own, each reading
 * an object of its own shape. Code of ours would change from commit to commit; this does not, so that runs on
 * different days compare.
 */
const fixedWorkload = (): (() => number) => {
  const functions = Array.from(
    { length: FUNCTIONS },
    // compiled from sources of their own: closures of one function would share its code
    (_, i) =>
      new Function('o', `let s = ${i}; for (const k in o) s += (o[k] | 0) + k.length * ${i % 7}; return s ^ ${i};`),
  ) as ((o: object) => number)[];
  const objects = Array.from({ length: FUNCTIONS }, (_, i) => ({ [`a${i}`]: i, b: i * 2, [`c${i % 13}`]: 'x' }));
  return () => functions.reduce((sum, run, i) => sum + run(objects[i]!), 0);
};

/** Waits without a system call: `performance.now()` reads the clock in user space. */
const busyWait = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

const timedUs = (work: () => unknown) => {
  const started = performance.now();
  work();
  return (performance.now() - started) * 1000;
};

/**
 * The fixed workload, `calls` times back to back, then `calls` times each after a busy wait of `pauseMs`, round after
 * round. The process keeps its core throughout and makes no system call, so any difference is what the pause let
 * others (other processes, other machines on the same host) do to the caches the workload left warm: what every call
 * of measure 2 meets after each DynamoDB Local answer.
 */
export const measurePauseCost = ({ rounds = 10, calls = 150, pauseMs = 3 } = {}): PauseCost => {
  const work = fixedWorkload();
  for (let i = 0; i < 2000; i++) work();
  const measured = Array.from({ length: rounds }, () => {
    const backToBack = Array.from({ length: calls }, () => timedUs(work));
    const afterPause = Array.from({ length: calls }, () => {
      busyWait(pauseMs);
      return timedUs(work);
    });
    return { backToBackUs: median(backToBack), afterPauseUs: median(afterPause) };
  });
  return pauseCostOf(measured);
};
