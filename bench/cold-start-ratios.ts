import { median } from './percentile';

/** One bundle's timings over the rounds, ms since its process started: the first answer, and the same call warm. */
export interface RoundTimings {
  firsts: number[];
  warms: number[];
}

const ratioOf = (values: number[], minimalValues: number[]) =>
  Math.round(median(values.map((value, round) => value / minimalValues[round]!)) * 100) / 100;

/** What being first costs: the first answer less the same call made warm, round by round. */
const coldStarts = ({ firsts, warms }: RoundTimings) => firsts.map((first, round) => first - warms[round]!);

/**
 * A bundle against the minimal one, each round against the same round's (the machine has slow stretches lasting
 * minutes; a round takes seconds), the median over the rounds: its first answer, and its cold start, which leaves
 * out the call's own requests (the recorder's first message waits on three writes DynamoDB Local answers one after
 * another).
 */
export const ratiosToMinimal = (bundle: RoundTimings, minimal: RoundTimings) => ({
  firstResponseRatio: ratioOf(bundle.firsts, minimal.firsts),
  ratioToMinimal: ratioOf(coldStarts(bundle), coldStarts(minimal)),
});
