import { raceBackoff } from '../support/concurrency';
import { WriteConflict } from '../domain/errors';
import { busyRecord } from '../http/api-error';

/** Enough for 50 writers racing on one record; each lost race re-reads and re-judges. */
export const MAX_WRITE_ATTEMPTS = 60;

/**
 * Optimistic locking, once for every record: `attempt` loads (the first attempt may use what the request
 * already read), plans, and saves on condition that nothing changed. A lost race (WriteConflict) backs off and
 * runs the whole attempt again; after MAX_WRITE_ATTEMPTS the caller gets a 503 to retry.
 */
export const optimisticWrite = async <Result>(attempt: (number: number) => Promise<Result>): Promise<Result> => {
  for (let number = 1; ; number++) {
    try {
      return await attempt(number);
    } catch (error) {
      if (!(error instanceof WriteConflict)) throw error;
      if (number >= MAX_WRITE_ATTEMPTS) throw busyRecord();
      await raceBackoff(number);
    }
  }
};
