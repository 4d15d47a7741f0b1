import { describe, expect, it } from 'vitest';
import { gatewayResourcePath, matchPath } from '../../../shared/api/path-template';
import { FAMILIES, ROUTES, routesOf } from '../../../shared/api/route-table';

describe('route table', () => {
  it('holds every endpoint of the spec once', () => {
    const keys = ROUTES.map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    // 4 auth + 5 × 8 limit levels (reset.do by POST and by DELETE, history.do) + 2 bulk reads + 6 per-action
    // + 6 webhook subscription routes
    expect(ROUTES).toHaveLength(4 + 40 + 2 + 6 + 6);
    for (const level of ['advertiser', 'campaign', 'banner', 'site', 'placement']) {
      expect(keys).toContain(`GET /rest-api/${level}/{${level}Id}/limits.do`);
      expect(keys).toContain(`POST /rest-api/${level}/{${level}Id}/limits/set.do`);
      expect(keys).toContain(`POST /rest-api/${level}/{${level}Id}/limits/update.do`);
      expect(keys).toContain(`POST /rest-api/${level}/{${level}Id}/limits/reset.do`);
      expect(keys).toContain(`DELETE /rest-api/${level}/{${level}Id}/limits/reset.do`);
      expect(keys).toContain(`DELETE /rest-api/${level}/{${level}Id}/limits.do`);
      expect(keys).toContain(`GET /rest-api/${level}/{${level}Id}/limits/status.do`);
      expect(keys).toContain(`GET /rest-api/${level}/{${level}Id}/limits/history.do`);
    }
    expect(keys).toEqual(
      expect.arrayContaining([
        'POST /rest-api/auth/token.do',
        'POST /rest-api/webhooks/create.do',
        'GET /rest-api/webhooks.do',
        'DELETE /rest-api/webhooks/{webhookId}.do',
        'POST /rest-api/webhooks/{webhookId}/update.do',
        'POST /rest-api/webhooks/{webhookId}/rotate-secret.do',
        'POST /rest-api/webhooks/{webhookId}/enable.do',
        'GET /rest-api/auth/{authToken}/login.do',
        'POST /rest-api/auth/forgot.do',
        'GET /rest-api/campaign/limits.do',
        'GET /rest-api/banners/limits.do',
        'GET /rest-api/per-action/limits/{type}/{entityId}.do',
        'POST /rest-api/per-action/add/limit/{type}/{entityId}.do',
        'POST /rest-api/per-action/update/limit/{type}/{entityId}.do',
        'POST /rest-api/per-action/delete.do',
        'POST /rest-api/per-action/limits/{type}/{entityId}/enable.do',
        'POST /rest-api/per-action/limits/{type}/{entityId}/disable.do',
      ]),
    );
  });

  it('requires authentication everywhere but on the auth family', () => {
    for (const route of ROUTES) expect(route.authenticated).toBe(route.family !== 'auth');
  });

  it('gives every family at least one route', () => {
    for (const family of FAMILIES) expect(routesOf(family).length).toBeGreaterThan(0);
  });

  it('maps to API Gateway resource paths that API Gateway accepts', () => {
    const segment = /^([A-Za-z0-9._-]+|\{[A-Za-z][A-Za-z0-9]*\})$/;
    const variableAt = new Map<string, string>();
    for (const route of ROUTES) {
      const parts = gatewayResourcePath(route.path).split('/').slice(1);
      parts.forEach((part, index) => {
        expect(part).toMatch(segment);
        // API Gateway allows one variable name per position under the same parent resource
        if (part.startsWith('{')) {
          const parent = parts.slice(0, index).join('/');
          const seen = variableAt.get(parent);
          if (seen) expect(part).toBe(seen);
          variableAt.set(parent, part);
        }
      });
    }
  });

  it('matches each concrete path to exactly one route of its method', () => {
    const samples = [
      ['GET', '/rest-api/campaign/limits.do'],
      ['GET', '/rest-api/campaign/100/limits.do'],
      ['DELETE', '/rest-api/campaign/100/limits.do'],
      ['GET', '/rest-api/per-action/limits/CAMPAIGN/100.do'],
      ['POST', '/rest-api/per-action/limits/CAMPAIGN/100/enable.do'],
      ['GET', '/rest-api/auth/0123456789abcdef0123456789abcdef/login.do'],
    ] as const;
    for (const [method, path] of samples) {
      const matches = ROUTES.filter((route) => route.method === method && matchPath(route.path, path));
      expect(matches, `${method} ${path}`).toHaveLength(1);
    }
  });
});

describe('path templates', () => {
  it('extracts parameters, stripping a literal suffix such as .do', () => {
    expect(
      matchPath('/rest-api/per-action/limits/{type}/{entityId}.do', '/rest-api/per-action/limits/CAMPAIGN/100.do'),
    ).toEqual({
      type: 'CAMPAIGN',
      entityId: '100',
    });
    expect(matchPath('/rest-api/campaign/{campaignId}/limits.do', '/rest-api/campaign/100/limits.do')).toEqual({
      campaignId: '100',
    });
  });

  it('decodes percent-encoded segments and tolerates one trailing slash', () => {
    expect(matchPath('/a/{x}/b', '/a/x%20y/b/')).toEqual({ x: 'x y' });
  });

  it('does not match other paths', () => {
    expect(matchPath('/rest-api/campaign/{campaignId}/limits.do', '/rest-api/campaign/limits.do')).toBeUndefined();
    expect(matchPath('/rest-api/campaign/{campaignId}/limits.do', '/rest-api/campaign/1/2/limits.do')).toBeUndefined();
    expect(
      matchPath('/rest-api/per-action/limits/{type}/{entityId}.do', '/rest-api/per-action/limits/CAMPAIGN/100xdo'),
    ).toBeUndefined();
  });

  it('declares suffixed parameters as whole segments for API Gateway', () => {
    expect(gatewayResourcePath('/rest-api/per-action/limits/{type}/{entityId}.do')).toBe(
      '/rest-api/per-action/limits/{type}/{entityId}',
    );
    expect(gatewayResourcePath('/rest-api/auth/token.do')).toBe('/rest-api/auth/token.do');
  });
});
