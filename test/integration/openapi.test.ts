import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../shared/api/route-table';
import { md5 } from '../support/http';
import { useTestService } from '../support/local-service';

const ctx = useTestService({ catalogFile: null });

describe('the API reference', () => {
  it('serves an OpenAPI 3.1 document holding every route of the route table, and nothing else', async () => {
    const response = await fetch(`${ctx.service.url}/rest-api/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as {
      openapi: string;
      servers: { url: string }[];
      paths: Record<string, Record<string, { security: unknown[] }>>;
    };
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers[0]!.url).toBe(ctx.service.url);
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(ROUTES.map((route) => `${route.method} ${route.path}`).sort());
    for (const route of ROUTES)
      expect(document.paths[route.path]![route.method.toLowerCase()]!.security.length > 0, route.path).toBe(
        route.authenticated,
      );
  });

  it('describes every cap of the grids with its bounds', async () => {
    type Schema = { $ref?: string; properties?: Record<string, { maximum?: number }> };
    const document = (await (await fetch(`${ctx.service.url}/rest-api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: Schema }> } }>>;
      components: { schemas: Record<string, Schema> };
    };
    const formOf = (path: string) => {
      const schema = document.paths[path]!.post!.requestBody.content['application/x-www-form-urlencoded']!.schema;
      return (schema.$ref ? document.components.schemas[schema.$ref.split('/').pop()!]! : schema).properties!;
    };
    const supply = formOf('/rest-api/site/{siteId}/limits/set.do');
    expect(supply.dailyRequestsLimit).toMatchObject({ maximum: 4_000_000_000 });
    expect(supply).not.toHaveProperty('dailyBudgetLimit');
    expect(formOf('/rest-api/campaign/{campaignId}/limits/set.do').totalBudgetLimit).toMatchObject({
      maximum: 9_999_999_999.999,
    });
  });

  it('serves a self-contained Redoc reference page at /docs that teaches authentication with examples', async () => {
    const response = await fetch(`${ctx.service.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    // nothing may be fetched from anywhere: scripts and styles are inline
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const page = await response.text();
    expect(page).not.toMatch(/<(script|link)[^>]+(src|href)="https?:/);
    expect(page).toContain('redoc');
    for (const route of ROUTES) expect(page, route.path).toContain(route.path);
    for (const credential of ['X-Api-Key', 'md5hex(md5hex(password) + timestamp)', 'dl_session'])
      expect(page).toContain(credential);
    expect(page).toContain('projectedReachAt');
    expect(page).toContain('SElTVE9SWSMyMDI2LTA2LTEwVDExOjAwOjAwLjAwMFojYQ');
    // its samples call the server that serves it, nothing else
    expect(page).toContain(`curl -sS '${ctx.service.url}/rest-api/`);
    expect(page).not.toContain('.invalid');
    expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/);
  });

  it('loads nothing from another origin: its policy travels in the page, and names only its own scripts', async () => {
    const response = await fetch(`${ctx.service.url}/docs`);
    const page = await response.text();
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)?.[1];
    expect(policy).toBe(response.headers.get('content-security-policy'));
    expect(policy).toMatch(/^default-src 'none'; script-src /);
    expect(policy).not.toMatch(/https?:|'unsafe-inline'[^;]*;.*script|\*/);
    // every script of the page is allowed by its hash, and no other is
    const scripts = [...page.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map(
      ([, source]) => `'sha256-${createHash('sha256').update(source!).digest('base64')}'`,
    );
    expect(
      /script-src ([^;]*)/
        .exec(policy!)![1]!
        .split(' ')
        .filter((source) => source.startsWith("'sha256-")),
    ).toEqual(scripts);
    // no element fetches from anywhere: links to other sites are to be followed, never loaded
    expect(page).not.toMatch(
      /<(script|img|link|iframe|source|video|audio|embed|object)\b[^>]*\s(src|href|data)=["']?(https?:)?\/\//i,
    );
    expect(page).not.toMatch(/url\(["']?(https?:)?\/\//i);
    expect(page).not.toContain('cdn.redoc.ly');
  });

  it('answers HEAD wherever it answers GET, with the same status and headers and no body', async () => {
    for (const path of ['/docs', '/rest-api/openapi.json', '/rest-api/campaign/100/limits.do']) {
      const get = await fetch(`${ctx.service.url}${path}`);
      const head = await fetch(`${ctx.service.url}${path}`, { method: 'HEAD' });
      expect(head.status, path).toBe(get.status);
      expect(head.headers.get('content-type'), path).toBe(get.headers.get('content-type'));
      expect(await head.text(), path).toBe('');
    }
    const refused = await fetch(`${ctx.service.url}/rest-api/campaign/100/limits/set.do`, { method: 'HEAD' });
    expect(refused.status).toBe(405);
  });

  it('works its hash example the way the service checks hashes', async () => {
    const document = (await (await fetch(`${ctx.service.url}/rest-api/openapi.json`)).json()) as {
      info: { description: string };
    };
    const inner = md5('demo-password');
    expect(document.info.description).toContain(inner);
    expect(document.info.description).toContain(md5(`${inner}1781092800000`));
  });
});
