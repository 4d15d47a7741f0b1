import createClient from 'openapi-fetch';
import type { paths } from './generated/api';

/**
 * What a partner writes with the most common TypeScript generator (openapi-typescript + openapi-fetch) from the
 * published document, and nothing more: the form content type once, at the client; the types do the rest.
 * Type-checked by tsc in the typed-client test, then run against the local server.
 */
export const runCalls = async (baseUrl: string, apiKey: string) => {
  const client = createClient<paths>({
    baseUrl,
    headers: { 'X-Api-Key': apiKey, 'Content-Type': 'application/x-www-form-urlencoded' },
  });
  const campaign = { path: { campaignId: 100 } };

  const set = await client.POST('/rest-api/campaign/{campaignId}/limits/set.do', {
    params: campaign,
    body: { dailyImpressionsLimit: 1000, totalBudgetLimit: 250.5, evenPacing: true },
  });
  const read = await client.GET('/rest-api/campaign/{campaignId}/limits.do', { params: campaign });
  const refused = await client.POST('/rest-api/campaign/{campaignId}/limits/update.do', {
    params: campaign,
    body: { dailyImpressionsLimit: 2000, weeklyImpressionsLimit: 1500 },
  });
  const reset = await client.POST('/rest-api/campaign/{campaignId}/limits/reset.do', {
    params: campaign,
    body: { limitCounters: ['DAILY_IMPRESSIONS', 'TOTAL_REVENUE'] },
  });
  const bulk = await client.GET('/rest-api/campaign/limits.do', { params: { query: { campaignIds: [100, 102] } } });
  const commaBulk = await client.GET('/rest-api/campaign/limits.do', { params: { query: { campaignIds: '100,102' } } });
  // every parameter in the query string and no body, as Epom's gem sends a write
  const querySet = await client.POST('/rest-api/campaign/{campaignId}/limits/set.do', {
    params: { ...campaign, query: { dailyClicksLimit: 50, evenPacing: 'yes' } },
  });

  return {
    set: { status: set.response.status, limit: set.data?.dailyImpressionsLimit, pacing: set.data?.evenPacing },
    read: { status: read.response.status, budget: read.data?.totalBudgetLimit },
    refused: { status: refused.response.status, code: refused.error?.code, errors: refused.error?.errors },
    reset: { status: reset.response.status, counters: reset.data?.limitCounters },
    bulk: { status: bulk.response.status, data: bulk.data },
    commaBulk: { status: commaBulk.response.status, data: commaBulk.data },
    querySet: {
      status: querySet.response.status,
      url: querySet.response.url,
      clicks: querySet.data?.dailyClicksLimit,
      pacing: querySet.data?.evenPacing,
    },
  };
};

/** Mistakes the generated types must catch: never called, only type-checked. */
export const mistakes = (client: ReturnType<typeof createClient<paths>>) => [
  client.POST('/rest-api/campaign/{campaignId}/limits/reset.do', {
    params: { path: { campaignId: 100 } },
    // @ts-expect-error a misspelt counter name is no counter
    body: { limitCounters: ['DAILY_IMPRESION'] },
  }),
  client.POST('/rest-api/campaign/{campaignId}/limits/set.do', {
    params: { path: { campaignId: 100 } },
    // @ts-expect-error evenPacing is a boolean or its text, never a number
    body: { evenPacing: 2 },
  }),
  client.GET('/rest-api/campaign/limits.do', {
    // @ts-expect-error campaign ids are numbers
    params: { query: { campaignIds: ['a', 'b'] } },
  }),
];
