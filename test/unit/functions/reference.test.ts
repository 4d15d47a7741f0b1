import { createHash } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createReferenceHandler } from '../../../functions/reference/reference-handler';
import { PLACEHOLDER_SERVER_URL, servingUrlOf } from '../../../shared/api/openapi/published-reference';

/** A page as the reference build makes it: the server in its inline state, its policy in a meta element. */
const builtPage = `<html><head>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-stale'">
<script>const __redoc_state = {"servers":[{"url":"${PLACEHOLDER_SERVER_URL}"}]};</script>
</head><body><pre>curl -sS '${PLACEHOLDER_SERVER_URL}/rest-api/campaign/100/limits.do'</pre></body></html>`;
const builtDocument = JSON.stringify({ servers: [{ url: PLACEHOLDER_SERVER_URL }] });

const event = (resource: string, path: string, domainName: string, httpMethod = 'GET') =>
  ({ resource, httpMethod, requestContext: { domainName, path } }) as unknown as APIGatewayProxyEvent;

const scriptHash = (page: string) =>
  `'sha256-${createHash('sha256')
    .update(/<script>([\s\S]*?)<\/script>/.exec(page)![1]!)
    .digest('base64')}'`;

describe('the reference function', () => {
  const handler = createReferenceHandler({ page: builtPage, document: builtDocument });

  it("names the server it is called on: the stage on API Gateway's host, a custom domain's base path", () => {
    expect(servingUrlOf(event('/docs', '/prod/docs', 'abc123.execute-api.eu-west-1.amazonaws.com'))).toBe(
      'https://abc123.execute-api.eu-west-1.amazonaws.com/prod',
    );
    expect(servingUrlOf(event('/rest-api/openapi.json', '/v2/rest-api/openapi.json', 'limits.example.com'))).toBe(
      'https://limits.example.com/v2',
    );
    expect(servingUrlOf(event('/docs', '/docs', 'limits.example.com'))).toBe('https://limits.example.com');
  });

  it("serves the document and the page for that server, the page's policy allowing its scripts as served", async () => {
    const document = await handler(event('/rest-api/openapi.json', '/prod/rest-api/openapi.json', 'api.test'));
    expect(JSON.parse(document.body)).toEqual({ servers: [{ url: 'https://api.test/prod' }] });
    expect(document.headers).toMatchObject({ 'Cache-Control': 'public, max-age=300' });

    const page = await handler(event('/docs', '/prod/docs', 'api.test'));
    expect(page.body).toContain("curl -sS 'https://api.test/prod/rest-api/campaign/100/limits.do'");
    expect(page.body).not.toContain('.invalid');
    const header = String(page.headers!['Content-Security-Policy']);
    expect(header).toContain(scriptHash(page.body));
    expect(header).not.toContain('stale');
    expect(page.body).toContain(`content="${header}"`);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const get = await handler(event('/docs', '/prod/docs', 'api.test'));
    const head = await handler(event('/docs', '/prod/docs', 'api.test', 'HEAD'));
    expect(head).toEqual({ ...get, body: '' });
  });
});
