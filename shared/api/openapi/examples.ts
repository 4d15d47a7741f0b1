import type { Operation } from '../route-table';
import { webhookExamples, webhookRequestExamples } from './webhook-examples';

/** A named example of a 200 answer, as the reference page shows it. */
export interface ResponseExample {
  summary: string;
  value: unknown;
}

const by = { userId: 1, username: 'admin', method: 'apiKey' };

const STATUS: Record<string, ResponseExample> = {
  pacing: {
    summary: 'Deliverable, at half the even pace at noon',
    value: {
      deliverable: true,
      reasons: [],
      pacing: [
        {
          field: 'dailyImpressionsLimit',
          cap: 2400,
          counter: 600,
          periodStart: '2026-06-10T00:00:00.000Z',
          periodEnd: '2026-06-11T00:00:00.000Z',
          expected: 1200,
          pace: 0.5,
          rateBasis: 'period',
          ratePerHour: 50,
          projectedAtPeriodEnd: 1200,
          projectedReachAt: null,
        },
      ],
      countersAsOf: '2026-06-10T12:00:00.000Z',
    },
  },
};

const HISTORY: Record<string, ResponseExample> = {
  page: {
    summary: 'The newest two changes, and the cursor of older ones',
    value: {
      success: true,
      changes: [
        {
          at: '2026-06-10T12:00:00.000Z',
          operation: 'update',
          by,
          fields: { dailyImpressionsLimit: { from: 100, to: 200 } },
          ignoredFields: ['weeklyBudgetLimit'],
        },
        {
          at: '2026-06-10T11:00:00.000Z',
          operation: 'reset',
          by,
          limitCounters: ['DAILY_IMPRESSIONS'],
          appliedAt: '2026-06-10T11:00:04.000Z',
        },
      ],
      next: 'SElTVE9SWSMyMDI2LTA2LTEwVDExOjAwOjAwLjAwMFojYQ',
    },
  },
  empty: { summary: 'No change recorded (or none the caller may see)', value: { success: true, changes: [] } },
};

const readOf = (idField: string) => ({
  [idField]: 100,
  id: 1,
  limitsSet: true,
  evenPacing: false,
  useLocalTime: false,
  dailyImpressionsLimit: 1000,
  dailyImpressions: 250,
  totalClicksLimit: 500,
  totalClicks: 42,
});

/** One example, under the key `example`. */
export const one = (summary: string, value: unknown): Record<string, ResponseExample> => ({
  example: { summary, value },
});

const actionLimit = {
  id: 3,
  entityId: 100,
  actionId: 7,
  dailyConversionsLimit: 5,
  totalConversionsLimit: 50,
  dailyConversions: 1,
  totalConversions: 12,
};

const dryRunOf = (idField: string): Record<string, ResponseExample> => ({
  saved: { summary: 'Saved: the limits as stored, with their counters', value: { success: true, ...readOf(idField) } },
  dryRun: {
    summary: 'dryRun=true: what the write would answer; nothing was written',
    value: { success: true, ...readOf(idField), dryRun: true },
  },
});

type Examples<Name extends Operation> = Record<Name, Record<string, ResponseExample>>;

const authExamples = (): Examples<Extract<Operation, `auth.${string}`>> => ({
  'auth.token': one('A token to open a session with', {
    success: true,
    authToken: '0f3c9a7b2d4e6f8091a2b3c4d5e6f708',
    role: 'NETWORK',
  }),
  'auth.login': one('json=true', { success: true, redirectUrl: '/index.do' }),
  'auth.forgot': one('The same answer for every address', {
    success: true,
    message: 'If the address belongs to an account, a password reset e-mail is on its way.',
  }),
  'auth.resetPassword': one('Changed', { success: true, message: 'Password changed; sign in again.' }),
});

const limitExamples = (idField: string): Examples<Extract<Operation, `limits.${string}`>> => {
  const queued = () =>
    one('Queued for the hourly flush', {
      success: true,
      message: 'Reset queued: the counters change at the next hourly flush',
      [idField]: 100,
      limitCounters: ['DAILY_IMPRESSIONS'],
    });
  return {
    'limits.read': one('Caps beside their counters; unset and hidden caps left out', readOf(idField)),
    'limits.status': STATUS,
    'limits.history': HISTORY,
    'limits.set': dryRunOf(idField),
    'limits.update': dryRunOf(idField),
    'limits.reset': queued(),
    'limits.resetByDelete': queued(),
    'limits.delete': one('Removed', { success: true, message: 'Limits removed', [idField]: 100, limitsSet: false }),
    'limits.bulkCampaigns': one('Two campaigns asked, one with limits, one unknown', {
      success: true,
      limits: [readOf('campaignId')],
      withNoLimits: [],
      notFound: '999',
      notFoundIds: [999],
    }),
    'limits.bulkBanners': one('The banners with limits', [readOf('bannerId')]),
  };
};

const perActionExamples = (): Examples<Extract<Operation, `perAction.${string}`>> => {
  const saved = () => one('The record with its counters', { success: true, actionLimit, actionLimitsEnabled: true });
  return {
    'perAction.list': one('One per-action limit, switch on', {
      success: true,
      actionLimits: [actionLimit],
      actionLimitsEnabled: true,
    }),
    'perAction.add': saved(),
    'perAction.update': saved(),
    'perAction.delete': one('Deleted', { success: true, deletedIds: [3] }),
    'perAction.enable': one('On', { success: true, entityId: 100, actionLimitsEnabled: true }),
    'perAction.disable': one('Off, and every per-action limit deleted', {
      success: true,
      entityId: 100,
      actionLimitsEnabled: false,
    }),
  };
};

/** Examples of the 200 answer of every operation. */
export const responseExamples = (operation: Operation, idField: string): Record<string, ResponseExample> => {
  const examples: Examples<Operation> = {
    ...authExamples(),
    ...limitExamples(idField),
    ...perActionExamples(),
    ...webhookExamples(),
  };
  return examples[operation];
};

/** Examples of the form body of the operations that take one. */
export const requestExamples = (operation: Operation): Record<string, ResponseExample> | undefined => {
  switch (operation) {
    case 'auth.token':
      return one('Credentials', { username: 'demo', password: 'demo-password' });
    case 'auth.forgot':
      return one('An address', { email: 'demo@example.com' });
    case 'auth.resetPassword':
      return one('The token of the link and a new password', {
        token: '0f3c9a7b2d4e6f8091a2b3c4d5e6f708',
        password: 'a-new-password',
      });
    case 'limits.set':
    case 'limits.update':
      return {
        ...one('Two caps; the others keep their values', { dailyImpressionsLimit: 1000, totalClicksLimit: 500 }),
        dryRun: { summary: 'Check a form without saving it', value: { dailyImpressionsLimit: 1000, dryRun: true } },
      };
    case 'limits.reset':
    case 'limits.resetByDelete':
      return one('Two counters', { limitCounters: ['DAILY_IMPRESSIONS', 'TOTAL_CLICKS'] });
    case 'perAction.add':
    case 'perAction.update':
      return one('Caps for action 7', { actionId: 7, dailyConversionsLimit: 5, totalConversionsLimit: 50 });
    case 'perAction.delete':
      return one('One limit of campaign 100', { type: 'CAMPAIGN', entityId: 100, ids: [3] });
    default:
      return webhookRequestExamples(operation);
  }
};
