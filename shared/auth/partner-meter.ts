import { meterStepRequest } from '../adapters/dynamodb/meter-store';
import type { TableStore } from '../adapters/dynamodb/table-store';
import { WriteConflict } from '../domain/errors';
import {
  meterWindow,
  nextMeterStep,
  partnerPlan,
  type MeterCounters,
  type MeterRefusal,
  type MeterStep,
  type UsagePlanLimits,
} from '../domain/metering/partner-quota';
import { ApiError } from '../http/api-error';
import { meterKey } from '../table/keys';

/** The partner plan as the stack configured it (`PARTNER_RATE_LIMIT` …), or the defaults both read. */
export const partnerPlanFromEnvironment = (env: NodeJS.ProcessEnv = process.env): UsagePlanLimits => {
  const plan = partnerPlan();
  const configured = (name: string, fallback: number) => {
    const value = Number(env[name]);
    return Number.isInteger(value) && value > 0 ? value : fallback;
  };
  return {
    rateLimit: configured('PARTNER_RATE_LIMIT', plan.rateLimit),
    burstLimit: configured('PARTNER_BURST_LIMIT', plan.burstLimit),
    quotaPerDay: configured('PARTNER_QUOTA_PER_DAY', plan.quotaPerDay),
  };
};

/** The window this container last counted each user in: its guess of which write will succeed first. */
const lastWindows = new Map<string, number>();
const REMEMBERED_USERS = 10_000;

const remember = (user: string, window: number): void => {
  lastWindows.delete(user);
  lastWindows.set(user, window);
  if (lastWindows.size > REMEMBERED_USERS) lastWindows.delete(lastWindows.keys().next().value!);
};

const rateLimited = ({ refused, retryAfterSeconds }: MeterRefusal): ApiError =>
  new ApiError(
    429,
    refused === 'quota'
      ? "Over the day's request quota; it renews at 00:00 UTC"
      : 'Over the request rate; retry after Retry-After seconds, with backoff',
    { headers: { 'Retry-After': String(retryAfterSeconds) }, code: 'RATE_LIMITED' },
  );

/**
 * Counts one request of a partner that signs in the form body (API Gateway, seeing no credential, meters it on the
 * anonymous plan) against a quota of its own, equal to a keyed partner's: one conditional write when the
 * container's guess of the window holds, a second when the window moved under it. Throws 429 when spent. Called
 * after the signature is verified, so no one but the partner can spend it.
 */
export const spendPartnerQuota = async (
  store: TableStore,
  userId: number,
  plan: UsagePlanLimits,
  now: Date,
): Promise<void> => {
  const at = meterWindow(plan, now);
  const user = `${store.tableName}|${userId}`;
  const key = meterKey(userId, at.day);
  let step: MeterStep | MeterRefusal =
    lastWindows.get(user) === at.window ? { kind: 'count', window: at.window } : { kind: 'open', window: at.window };
  for (let attempt = 0; attempt < 3 && 'kind' in step; attempt++) {
    try {
      await store.update(meterStepRequest(step, key, at, now));
      remember(user, step.window);
      return;
    } catch (error) {
      if (!(error instanceof WriteConflict)) throw error;
      step = nextMeterStep((error.current ?? {}) as MeterCounters, at);
    }
  }
  throw rateLimited('kind' in step ? { refused: 'rate', retryAfterSeconds: 1 } : step);
};
