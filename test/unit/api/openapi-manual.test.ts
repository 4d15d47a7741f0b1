import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../shared/api/error-codes';
import { buildOpenApiDocument } from '../../../shared/api/openapi/openapi-document';

type Media = { schema?: unknown; examples?: Record<string, unknown> };
type Response = { $ref?: string; content?: Record<string, Media>; headers?: Record<string, unknown> };
type OperationObject = {
  operationId: string;
  description?: string;
  parameters: { name: string; description?: string }[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, Response>;
};

const document = buildOpenApiDocument() as unknown as {
  paths: Record<string, Record<string, OperationObject>>;
  components: { responses: Record<string, Response>; schemas: Record<string, unknown> };
};
const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ label: `${method} ${path}`, operation })),
);

/** Every property of every schema in the value, with where it is. */
const properties = (value: unknown, at = ''): { at: string; schema: Record<string, unknown> }[] => {
  if (!value || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap((item, index) => properties(item, `${at}/${index}`));
  const node = value as Record<string, unknown>;
  const own = Object.entries((node.properties as Record<string, Record<string, unknown>>) ?? {}).map(
    ([name, schema]) => ({ at: `${at}/${name}`, schema }),
  );
  return [
    ...own,
    ...Object.entries(node)
      .filter(([key]) => key !== 'examples')
      .flatMap(([key, child]) => properties(child, `${at}/${key}`)),
  ];
};

describe('the OpenAPI document as a manual', () => {
  it('describes every operation and parameter, with stable unique operation ids', () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('limitsHistoryCampaign');
    for (const { label, operation } of operations) {
      expect(operation.description, label).toBeTruthy();
      for (const parameter of operation.parameters)
        expect(parameter.description, `${label} ${parameter.name}`).toBeTruthy();
    }
  });

  it('describes every field of every schema', () => {
    const bare = properties(document).filter(({ schema }) => !schema.description && !schema.$ref);
    expect(bare.map(({ at }) => at)).toEqual([]);
  });

  it('gives examples of every answer and every form body, errors included', () => {
    for (const { label, operation } of operations) {
      expect(Object.keys(operation.responses['200']?.content?.['application/json']?.examples ?? {}), label).not.toEqual(
        [],
      );
      const form = operation.requestBody?.content['application/x-www-form-urlencoded'];
      if (form) expect(Object.keys(form.examples ?? {}), label).not.toEqual([]);
      for (const [status, response] of Object.entries(operation.responses).filter(
        ([status]) => status !== '200' && status !== '302',
      )) {
        const shared = document.components.responses[response.$ref!.split('/').pop()!]!;
        expect(Object.keys(shared.content!['application/json']!.examples ?? {}), `${label} ${status}`).not.toEqual([]);
        expect(shared.headers, status).toHaveProperty('X-Request-Id');
        if (status === '503') expect(shared.headers, status).toHaveProperty('Retry-After');
      }
    }
  });

  it('lists every error code in the envelope', () => {
    const envelope = document.components.schemas.ErrorEnvelope as { properties: { code: { enum: string[] } } };
    expect(envelope.properties.code.enum.sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });
});
