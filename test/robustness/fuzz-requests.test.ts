import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES, routesOf, type Family, type Route } from '../../shared/api/route-table';
import { DEMAND_GRID, SUPPLY_GRID } from '../../shared/domain/limits/cap-grid';
import { apiClient } from '../support/http';
import { scanTable, useTestService } from '../support/local-service';
import { rawRequest } from '../support/raw-http';

const ctx = useTestService();
const RUNS_PER_FAMILY = Number(process.env.FUZZ_RUNS ?? 60);

beforeAll(async () => {
  // some state to be changed (or not): records on every level and a per-action limit
  const demo = apiClient(ctx.service.url, 'demo-key-0001');
  for (const path of [
    '/rest-api/advertiser/10',
    '/rest-api/campaign/100',
    '/rest-api/banner/1000',
    '/rest-api/site/20',
    '/rest-api/placement/200',
  ])
    await demo.post(`${path}/limits/set.do`, { dailyClicksLimit: '10', totalClicksLimit: '100' });
  await demo.post('/rest-api/per-action/add/limit/CAMPAIGN/100.do', { actionId: '7', dailyConversionsLimit: '3' });
});

const PARAMETER_NAMES = [
  ...DEMAND_GRID.caps.flatMap((cap) => [cap.name, cap.counter]),
  ...SUPPLY_GRID.caps.map((cap) => cap.name),
  'startDate',
  'endDate',
  'removeStartDateLimit',
  'removeEndDateLimit',
  'evenPacing',
  'useLocalTime',
  'timezoneOffset',
  'limitCounters',
  'actionId',
  'ids',
  'type',
  'entityId',
  'campaignIds',
  'bannerIds',
  'startDateFrom',
  'startDateTo',
  'activeCampaignOnly',
  'username',
  'password',
  'email',
  'token',
  'json',
  'callback',
  'timestamp',
  'hash',
  'output',
];

const value = fc.oneof(
  fc.constantFrom(
    '0',
    '1',
    '-1',
    '7',
    '100',
    '1000',
    '4000000000',
    '4000000001',
    '9999999999.999',
    '0.0001',
    '1e3',
    'NaN',
    'true',
    'false',
    'ALL',
    'DAILY_CLICKS',
    'CAMPAIGN',
    'campaign',
    '2026-12-01 10:00',
    '2026-13-01 10:00',
    '2026-02-30-10-00',
    '',
    ' ',
    '%',
    '\u0000',
    '../..',
    '<script>',
    'x'.repeat(5000),
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.integer().map(String),
  fc.double().map(String),
);

const parameters = fc.dictionary(
  fc.oneof(fc.constantFrom(...PARAMETER_NAMES), fc.string({ maxLength: 12 })),
  fc.oneof(value, fc.array(value, { minLength: 2, maxLength: 3 })),
  { maxKeys: 6 },
);

const segment = fc.oneof(
  fc.constantFrom(
    '10',
    '100',
    '1000',
    '20',
    '200',
    '7',
    '0',
    '-1',
    '99999999999999999999',
    'abc',
    'CAMPAIGN',
    'campaign',
    'SITE',
    '%20',
    '%ZZ',
    '..',
    '',
    'ünï',
    '0123456789abcdef0123456789abcdef',
  ),
  fc.string({ maxLength: 10 }).map(encodeURIComponent),
);

const encode = (fields: Record<string, string | string[]>): string => {
  const pairs: string[] = [];
  for (const [name, values] of Object.entries(fields))
    for (const item of [values].flat()) pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(item)}`);
  return pairs.join('&');
};

const requestFor = (family: Family) =>
  fc.record({
    route: fc.constantFrom(...routesOf(family)),
    segments: fc.array(segment, { minLength: 3, maxLength: 3 }),
    method: fc.oneof(
      { weight: 5, arbitrary: fc.constant<string | undefined>(undefined) },
      fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH'),
    ),
    query: parameters,
    form: parameters,
    contentType: fc.constantFrom(
      'application/x-www-form-urlencoded',
      'application/x-www-form-urlencoded; charset=utf-8',
      'application/json',
      'text/plain',
      undefined,
    ),
    rawBody: fc.option(
      fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom('a=%', '%%%', '=&=&', 'a=1&&&b', '{"a":1}')),
      { nil: undefined },
    ),
    apiKey: fc.constantFrom('demo-key-0001', 'alice-key-0001', 'viewer-key-0001', 'publisher-key-0001', undefined),
    malformPath: fc.constantFrom('none', 'none', 'none', 'double-slash', 'trailing', 'dot-segment', 'case'),
  });

const pathOf = (route: Route, segments: string[], malform: string): string => {
  let index = 0;
  let path = route.path.replace(/\{[A-Za-z]+\}/g, () => segments[index++ % segments.length]!);
  if (malform === 'double-slash') path = path.replace('/rest-api/', '/rest-api//');
  if (malform === 'trailing') path = `${path}/`;
  if (malform === 'dot-segment') path = path.replace('/rest-api/', '/rest-api/x/../');
  if (malform === 'case') path = path.toUpperCase();
  return path;
};

const stateWithoutShortLived = async () =>
  // forgot.do counts requests per address and login.do opens sessions: both are 2xx answers, not refusals
  (await scanTable(ctx.service)).filter((item) => !/^(RESETRATE|SESSION|TOKEN|RESET)#/.test(String(item.PK)));

describe.each(FAMILIES)('random requests to the %s family', (family) => {
  it('never answer 5xx, answer every 4xx with the JSON envelope, and change nothing on a 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(requestFor(family), async (generated) => {
        const method = generated.method ?? generated.route.method;
        const query = encode(generated.query);
        const path = `${pathOf(generated.route, generated.segments, generated.malformPath)}${query ? `?${query}` : ''}`;
        const body = method === 'GET' ? undefined : (generated.rawBody ?? encode(generated.form));
        const headers: Record<string, string> = {
          ...(generated.contentType && body !== undefined ? { 'content-type': generated.contentType } : {}),
          ...(generated.apiKey ? { 'x-api-key': generated.apiKey } : {}),
        };
        const before = await stateWithoutShortLived();
        const response = await rawRequest(ctx.service.url, method, path, headers, body);
        expect(response.status, `${method} ${path}`).toBeLessThan(500);
        if (response.status >= 400) {
          expect(response.headers['content-type'], `${method} ${path}`).toBe('application/json; charset=utf-8');
          const envelope = JSON.parse(response.body) as { success: unknown; message: unknown };
          expect(envelope.success).toBe(false);
          expect(typeof envelope.message).toBe('string');
          expect(await stateWithoutShortLived(), `${method} ${path} → ${response.status}`).toEqual(before);
        }
      }),
      { numRuns: RUNS_PER_FAMILY },
    );
  }, 120_000);
});
