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
