import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../../shared/api/route-table';
import { buildOpenApiDocument } from '../../../shared/api/openapi/openapi-document';
import { readIdempotencyKey } from '../../../shared/auth/idempotent-writes';

type Parameter = { name: string; in: string; schema: { pattern?: string } };
type Response = { $ref?: string; headers?: Record<string, unknown> };
type OperationObject = { parameters: Parameter[]; responses: Record<string, Response> };

const document = buildOpenApiDocument() as unknown as {
  paths: Record<string, Record<string, OperationObject>>;
  components: { responses: Record<string, Response> };
};
const operationOf = (path: string, method: string) => document.paths[path]![method.toLowerCase()]!;
const keyParameter = (operation: OperationObject) =>
  operation.parameters.find((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key');
/** The family pipeline claims a key for every authenticated POST and DELETE, and for nothing else. */
const honoursKey = (route: (typeof ROUTES)[number]) => route.authenticated && ['POST', 'DELETE'].includes(route.method);

describe('the OpenAPI document on Idempotency-Key', () => {
  it('declares the header, Idempotent-Replayed, 409 and 422 on every write that honours a key, and only there', () => {
    expect(ROUTES.filter(honoursKey).length).toBeGreaterThanOrEqual(10);
    for (const route of ROUTES) {
      const operation = operationOf(route.path, route.method);
      const label = `${route.method} ${route.path}`;
      const honours = honoursKey(route);
      expect(keyParameter(operation) !== undefined, label).toBe(honours);
      expect(Object.keys(operation.responses['200']!.headers ?? {}).includes('Idempotent-Replayed'), label).toBe(
        honours,
      );
      expect(operation.responses['409']?.$ref, label).toBe(honours ? '#/components/responses/Error409' : undefined);
      expect(operation.responses['422']?.$ref, label).toBe(honours ? '#/components/responses/Error422' : undefined);
    }
  });

  it("declares the key's syntax as the service reads it: quoted or bare, 1 to 255 visible characters", () => {
    const route = ROUTES.find(honoursKey)!;
    const pattern = new RegExp(keyParameter(operationOf(route.path, route.method))!.schema.pattern!, 'u');
    const accepted = (value: string) => {
      try {
        readIdempotencyKey(value);
        return true;
      } catch {
        return false;
      }
    };
    for (const value of ['"8e03978e-40d5"', 'bare-key', '"a"', 'x'.repeat(255), `"${'x'.repeat(255)}"`, '"!#[]~"'])
      expect([pattern.test(value), accepted(value)], value).toEqual([true, true]);
    for (const value of ['', '""', '"a"b"', 'a\\b', 'with space', 'x'.repeat(256), 'é', '"open'])
      expect([pattern.test(value), accepted(value)], value).toEqual([false, false]);
  });

  it('declares RateLimit-Policy and RateLimit on the answers of authenticated routes, errors after metering too', () => {
    for (const route of ROUTES) {
      const headers = Object.keys(operationOf(route.path, route.method).responses['200']!.headers ?? {});
      expect(
        ['RateLimit-Policy', 'RateLimit'].every((name) => headers.includes(name)),
        route.path,
      ).toBe(route.authenticated);
    }
    const { responses } = document.components;
    for (const status of [400, 401, 403, 404, 409, 422, 429, 500, 503])
      expect(Object.keys(responses[`Error${status}`]!.headers ?? {}), String(status)).toEqual(
        expect.arrayContaining(['RateLimit-Policy', 'RateLimit']),
      );
    expect(Object.keys(responses.Error429!.headers ?? {})).toContain('Retry-After');
    expect(Object.keys(responses.Error409!.headers ?? {})).toContain('Retry-After');
  });
});
