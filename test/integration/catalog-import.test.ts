import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, inject } from 'vitest';
import { DEMO_CATALOG_FILE } from '../../infra/local/demo-catalog-file';
import { scanTable, useTestService } from '../support/local-service';
import { runToolInProcess } from '../support/tool-run';

// the key a tool's client gives DynamoDB Local (`DYNAMODB_ENDPOINT`): the CLI below writes to this service's table
const ctx = useTestService({ dynamoAccessKeyId: 'local' });
const demo = JSON.parse(readFileSync(DEMO_CATALOG_FILE, 'utf8'));

const postCatalog = (body: string) =>
  fetch(`${ctx.service.url}/_local/catalog`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('catalog import', () => {
  it('loads the demo catalog at start', () => {
    expect(ctx.service.catalogCounts).toEqual({
      users: demo.users.length,
      advertisers: demo.advertisers.length,
      campaigns: demo.campaigns.length,
      banners: demo.banners.length,
      sites: demo.sites.length,
      placements: demo.placements.length,
      actions: demo.actions.length,
    });
  });

  it('changes nothing when the same file is imported twice', async () => {
    const before = await scanTable(ctx.service);
    const response = await postCatalog(JSON.stringify(demo));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true, imported: { users: demo.users.length } });
    expect(await scanTable(ctx.service)).toEqual(before);
  });

  it('never stores a password or an API key in clear', async () => {
    const text = JSON.stringify(await scanTable(ctx.service));
    for (const user of demo.users) {
      expect(text).not.toContain(user.password);
      for (const key of user.apiKeys) expect(text).not.toContain(key);
    }
  });

  it('lists every problem of an invalid catalog and writes nothing', async () => {
    const before = await scanTable(ctx.service);
    const invalid = {
      advertisers: [{ id: 500 }],
      campaigns: [{ id: 501, advertiserId: 999 }],
      banners: [{ id: 502, campaignId: 501, colour: 'red' }],
    };
    const response = await postCatalog(JSON.stringify(invalid));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { success: boolean; problems: { path: string; reason: string }[] };
    expect(body.success).toBe(false);
    expect(body.problems.map((p) => p.path)).toEqual(['$.banners[0]']);
    const second = await postCatalog(JSON.stringify({ ...invalid, banners: [] }));
    expect(second.status).toBe(400);
    expect(((await second.json()) as typeof body).problems).toEqual([
      { path: '$.campaigns[0].advertiserId', reason: expect.stringContaining('999') },
    ]);
    expect(await scanTable(ctx.service)).toEqual(before);
  });

  it('answers a body that is not JSON with 400', async () => {
    const response = await postCatalog('{not json');
    expect(response.status).toBe(400);
  });

  it('resolves references against the stored catalog and upserts', async () => {
    const response = await postCatalog(
      JSON.stringify({ campaigns: [{ id: 600, advertiserId: 10 }], banners: [{ id: 601, campaignId: 600 }] }),
    );
    expect(response.status).toBe(200);
    const items = await scanTable(ctx.service);
    expect(items.find((item) => item.PK === 'BANNER#601' && item.SK === 'ENTITY')).toMatchObject({
      campaignId: 600,
      advertiserId: 10,
      parentPK: 'CAMPAIGN#600',
    });
  });

  it('imports through the CLI into a table named by TABLE_NAME, and through a running local server', async () => {
    const file = join(tmpdir(), `catalog-${process.pid}.json`);
    writeFileSync(file, JSON.stringify({ advertisers: [{ id: 700 }], actions: [{ id: 70, name: 'cli' }] }));
    // in this worker: the spawned tool's wiring is cli-failures.test.ts's
    const cli = (args: string[], env: NodeJS.ProcessEnv) =>
      runToolInProcess('infra/local/catalog-cli.ts', [file, ...args], { ...process.env, ...env });
    const direct = await cli([], {
      TABLE_NAME: ctx.service.dependencies.store.tableName,
      DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    });
    expect(direct.code, direct.stderr).toBe(0);
    expect(direct.stdout).toContain('"advertisers":1');
    const viaServer = await cli(['--url', ctx.service.url], { TABLE_NAME: '' });
    expect(viaServer.code, viaServer.stderr).toBe(0);
    expect(viaServer.stdout).toContain('"actions":1');
    expect((await scanTable(ctx.service)).some((item) => item.PK === 'ADVERTISER#700')).toBe(true);
    writeFileSync(file, JSON.stringify({ campaigns: [{ id: 701, advertiserId: 7777 }] }));
    const refused = await cli(['--url', ctx.service.url], { TABLE_NAME: '' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('$.campaigns[0].advertiserId');
  });
});
