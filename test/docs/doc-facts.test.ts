import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_IDS_PER_DELETE } from '../../shared/domain/per-action/per-action-change';
import { TABLE_DEFINITION } from '../../shared/table/table-definition';
import { useTestService } from '../support/local-service';

const read = (page: string) => readFileSync(page, 'utf8');

const ctx = useTestService();

/** Facts the guides state in words, held against the code that decides them. */
describe('the guides agree with the service', () => {
  it("state per-action delete.do's id limit as the service enforces it", () => {
    for (const page of ['docs/partner-guide.md', 'docs/writes-and-history.md']) {
      // with an Idempotency-Key, the stored answer takes one of the transaction's items: one id fewer
      const stated = [
        ...read(page).matchAll(
          /(keyed per-action `?)?delete\.do`?[^.|]*?at most (\d+) ids(?: \((\d+) with an `Idempotency-Key`)?/g,
        ),
      ].flatMap(([, keyed, most, withKey]) =>
        keyed
          ? [{ keyed: Number(most) }]
          : [{ unkeyed: Number(most) }, ...(withKey ? [{ keyed: Number(withKey) }] : [])],
      );
      expect(stated.length, page).toBeGreaterThan(0);
      for (const fact of stated)
        expect(fact, page).toEqual(
          'keyed' in fact ? { keyed: MAX_IDS_PER_DELETE - 1 } : { unkeyed: MAX_IDS_PER_DELETE },
        );
      expect(
        stated.some((fact) => 'keyed' in fact),
        page,
      ).toBe(true);
    }
  });

  it("name the table stream's view type as the table definition sets it", () => {
    for (const page of ['docs/operations.md', 'docs/architecture.md', 'docs/events.md']) {
      const text = read(page);
      expect(text, page).toContain(`\`${TABLE_DEFINITION.streamView}\``);
      expect(text, page).not.toMatch(/stream of new images|stream\*\* \(new images\)/);
    }
  });

  it("say alike where a LimitReached's `at` comes from locally: the local clock, as the server takes it", () => {
    // test/integration/limit-reached.test.ts holds the server to it: with /_local/clock fixed, `at` is that time
    const events = read('docs/events.md');
    const locally = events.slice(events.indexOf('## Locally'));
    const sentence = /`at` is the stream record's time[^.]*\./.exec(locally)?.[0] ?? '';
    expect(sentence).toContain('`/_local/clock`');
    expect(sentence).not.toMatch(/machine's clock|not from `\/_local\/clock`/);
    expect(read('docs/local-server.md')).toMatch(/A record's time is the local clock's second/);
  });

  it("import the local server guide's sample catalog into a server holding the demo catalog", async () => {
    const guide = read('docs/local-server.md');
    const section = guide.slice(guide.indexOf('## Catalog format'));
    const sample = /```json\n([\s\S]*?)\n```/.exec(section)![1]!;
    const answer = await fetch(`${ctx.service.url}/_local/catalog`, { method: 'POST', body: sample });
    expect(answer.status, await answer.clone().text()).toBe(200);
    const catalog = JSON.parse(sample) as { users: { apiKeys: string[] }[]; campaigns: { id: number }[] };
    const campaign = await fetch(`${ctx.service.url}/rest-api/campaign/${catalog.campaigns[0]!.id}/limits.do`, {
      headers: { 'X-Api-Key': catalog.users[0]!.apiKeys[0]! },
    });
    expect(campaign.status).toBe(200);
  });
});
