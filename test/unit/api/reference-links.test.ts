import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../shared/api/openapi/openapi-document';
import { legacyLinkScript } from '../../../shared/api/openapi/reference-page';

type Paths = Record<string, Record<string, { operationId: string; tags: string[] }>>;
const document = buildOpenApiDocument() as unknown as { paths: Paths };
const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));

/** Where the page's first script sends a browser that opened `hash`: the page's own route, or nowhere. */
const opened = (hash: string): string | undefined => {
  let replaced: string | undefined;
  const location = { hash, replace: (target: string) => (replaced = target) };
  new Function('location', legacyLinkScript(document))(location);
  return replaced;
};

describe('operation links of the reference page', () => {
  it('takes #operation/{operationId} and #tag/{tag}/operation/{operationId} to the operation in Redoc', () => {
    expect(operations.length).toBeGreaterThan(50);
    for (const { operationId, tags } of operations) {
      const route = `#/${tags[0]}/${operationId.toLowerCase()}`;
      expect(opened(`#operation/${operationId}`), operationId).toBe(route);
      expect(opened(`#tag/${tags[0]}/operation/${operationId}`), operationId).toBe(route);
    }
  });

  it('leaves the page own routes and unknown operations alone', () => {
    expect(opened('#/demand-limits/limitsreadcampaign')).toBeUndefined();
    expect(opened('#operation/noSuchOperation')).toBeUndefined();
    expect(opened('')).toBeUndefined();
  });
});
