import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalRequest } from '../../../shared/auth/hash-replay';
import { readParameters } from '../../../shared/http/parameters';

const ROUTE = '/rest-api/campaign/{campaignId}/limits/reset.do';
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);

/** The canonical form of a query written as `pairs`, in that order. */
const canonical = (pairs: [string, string][], campaignId = '122', method = 'POST') => {
  const multi: Record<string, string[]> = {};
  for (const [name, value] of pairs) multi[name] = [...(multi[name] ?? []), value];
  return canonicalRequest({
    method,
    route: ROUTE,
    pathParameters: { campaignId },
    parameters: readParameters({ multiValueQueryStringParameters: multi }),
  });
};

const name = fc.constantFrom('dailyClicksLimit', 'evenPacing', 'limitCounters', 'note');
const value = fc.constantFrom('1', '7', 'true', 'ALL', 'DAILY_CLICKS', 'a b');
const pairs = fc.uniqueArray(fc.tuple(name, value), { selector: ([n]) => n, maxLength: 4 });

describe('the canonical form of a signed request', () => {
  it(`is the same however the request is spelled: order, repeats, leading zeros, hash case, answer format (seed ${SEED})`, () => {
    fc.assert(
      fc.property(
        pairs,
        fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 }),
        (sent, hash) => {
          const signedAs = (h: string): [string, string][] => [
            ['username', 'demo'],
            ['timestamp', '1'],
            ['hash', h],
          ];
          const plain = canonical([...signedAs(hash.toLowerCase()), ...sent]);
          const respelled: [string, string][] = [...sent.slice().reverse(), ...sent, ...signedAs(hash.toUpperCase())];
          expect(canonical(respelled, '000122')).toBe(plain);
          expect(canonical([...respelled, ['output', 'json'], ['callback', 'cb']])).toBe(plain);
        },
      ),
      { seed: SEED },
    );
  });

  it(`differs when what is asked differs: a value, the entity, the method (seed ${SEED})`, () => {
    fc.assert(
      fc.property(pairs, (sent) => {
        const plain = canonical(sent);
        expect(canonical([...sent, ['extra', 'x']])).not.toBe(plain);
        expect(canonical(sent, '123')).not.toBe(plain);
        expect(canonical(sent, '122', 'DELETE')).not.toBe(plain);
        if (sent.length > 0) expect(canonical([[sent[0]![0], 'other'], ...sent.slice(1)])).not.toBe(plain);
      }),
      { seed: SEED },
    );
  });

  it('reads an array parameter as the set it names, comma-separated or repeated', () => {
    expect(canonical([['limitCounters', 'TOTAL_CLICKS,DAILY_CLICKS']])).toBe(
      canonical([
        ['limitCounters', 'DAILY_CLICKS'],
        ['limitCounters', 'TOTAL_CLICKS'],
        ['limitCounters', 'DAILY_CLICKS'],
      ]),
    );
  });
});
