import type { Operation } from '../route-table';

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

const dryRunOf = (idField: string): Record<string, ResponseExample> => ({
  dryRun: {
    summary: 'dryRun=true: what the write would answer; nothing was written',
    value: {
      success: true,
      [idField]: 100,
      limitsSet: true,
      dailyImpressionsLimit: 200,
      dailyImpressions: 0,
      evenPacing: false,
      useLocalTime: false,
      dryRun: true,
    },
  },
});

/** Examples of the 200 answer of the operations that have them. */
export const responseExamples = (
  operation: Operation,
  idField: string,
): Record<string, ResponseExample> | undefined => {
  switch (operation) {
    case 'limits.status':
      return STATUS;
    case 'limits.history':
      return HISTORY;
    case 'limits.set':
    case 'limits.update':
      return dryRunOf(idField);
    default:
      return undefined;
  }
};
