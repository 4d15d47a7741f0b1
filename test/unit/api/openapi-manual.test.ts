import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../shared/api/error-codes';
import { buildOpenApiDocument } from '../../../shared/api/openapi/openapi-document';
import packageJson from '../../../package.json' with { type: 'json' };

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

describe('the OpenAPI document as the service reads requests', () => {
  type Parameter = { name: string; in: string; required: boolean; schema: Record<string, unknown> };
  type Operation = Omit<OperationObject, 'parameters' | 'requestBody'> & {
    parameters: Parameter[];
    requestBody?: {
      required: boolean;
      content: Record<string, { schema: { $ref?: string } & Record<string, unknown>; encoding?: object }>;
    };
    security: Record<string, unknown>[];
    'x-codeSamples': { lang: string; label: string; source: string }[];
  };
  const all = operations as unknown as { label: string; operation: Operation }[];
  const resolve = (schema: { $ref?: string } & Record<string, unknown>) =>
    (schema.$ref ? document.components.schemas[schema.$ref.split('/').pop()!] : schema) as {
      properties: Record<string, Record<string, unknown>>;
      required?: string[];
      additionalProperties?: unknown;
    };

  it('takes every form field in the query string too, the body optional and open to unknown fields', () => {
    const forms = all.filter(({ operation }) => operation.requestBody);
    expect(forms.length).toBeGreaterThan(20);
    for (const { label, operation } of forms) {
      const media = operation.requestBody!.content['application/x-www-form-urlencoded']!;
      const form = resolve(media.schema);
      expect(operation.requestBody!.required, label).toBe(false);
      expect(form.required ?? [], label).toEqual([]);
      expect(form.additionalProperties, label).toBe(true);
      const query = operation.parameters.filter((parameter) => parameter.in === 'query');
      for (const name of Object.keys(form.properties))
        expect(
          query.find((parameter) => parameter.name === name),
          `${label} ${name}`,
        ).toMatchObject({ required: false, schema: form.properties[name] });
    }
  });

  it('reads lists comma-separated or repeated, with an explicit form encoding, and booleans as their words', () => {
    const reset = all.find(({ operation }) => operation.operationId === 'limitsResetCampaign')!.operation;
    const media = reset.requestBody!.content['application/x-www-form-urlencoded']!;
    expect(media.encoding).toEqual({ limitCounters: { style: 'form', explode: true, allowReserved: true } });
    const counters = resolve(media.schema).properties.limitCounters as { anyOf: Record<string, unknown>[] };
    const comma = new RegExp(counters.anyOf.find((branch) => branch.type === 'string')!.pattern as string);
    expect(comma.test('DAILY_IMPRESSIONS,TOTAL_REVENUE')).toBe(true);
    expect(comma.test('DAILY_IMPRESSIONS, ALL')).toBe(true);
    expect(comma.test('DAILY_IMPRESSIONS,NOPE')).toBe(false);
    expect(counters.anyOf.find((branch) => branch.type === 'array')).toMatchObject({ minItems: 1 });
    const bulk = all.find(({ operation }) => operation.operationId === 'limitsBulkCampaigns')!.operation;
    const ids = bulk.parameters.find((parameter) => parameter.name === 'campaignIds')!;
    expect(ids).toMatchObject({ style: 'form', explode: true });
    const idText = new RegExp((ids.schema.anyOf as Record<string, unknown>[])[0]!.pattern as string);
    expect(['141,142', '141', '0,1', '1,a'].map((text) => idText.test(text))).toEqual([true, true, false, false]);
    const pacing = all.find(({ operation }) => operation.operationId === 'limitsSetCampaign')!.operation.parameters;
    const words = new RegExp(
      (pacing.find((parameter) => parameter.name === 'evenPacing')!.schema.anyOf as Record<string, unknown>[])[1]!
        .pattern as string,
    );
    expect(['true', 'No', ' ON ', '1', 'maybe', '2'].map((text) => words.test(text))).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
  });

  it('offers the body-signed request as the empty security alternative, and says so', () => {
    for (const { label, operation } of all.filter(({ operation }) => operation.security.length > 0)) {
      expect(operation.security, label).toContainEqual({});
      expect(operation.description, label).toContain('in the form body');
    }
  });

  it('declares X-Request-Id on every answer, and the login redirect with Location', () => {
    for (const { label, operation } of all)
      for (const [status, response] of Object.entries(operation.responses)) {
        const declared = response.$ref ? document.components.responses[response.$ref.split('/').pop()!]! : response;
        expect(declared.headers, `${label} ${status}`).toHaveProperty('X-Request-Id');
      }
    const login = all.find(({ operation }) => operation.operationId === 'authLogin')!.operation;
    expect(login.responses['302']!.headers).toHaveProperty('Location');
    expect(document.components.responses.Error405!.headers).toHaveProperty('Allow');
  });

  it('gives ids no safe-integer range, and carries the package version', () => {
    expect(JSON.stringify(document)).not.toContain('9007199254740991');
    expect((document as unknown as { info: { version: string } }).info.version).toBe(packageJson.version);
  });

  it('shows every operation with curl, the generated TypeScript client and Ruby, the gem where it has the call', () => {
    for (const { label, operation } of all) {
      const samples = operation['x-codeSamples'];
      expect(
        samples.map((sample) => sample.lang),
        label,
      ).toEqual(['Shell', 'TypeScript', 'Ruby']);
      const [curl, typescript, ruby] = samples.map((sample) => sample.source);
      expect(curl, label).toMatch(/^curl /);
      const [method, path] = label.split(' ');
      expect(typescript, label).toContain(`client.${method!.toUpperCase()}('${path}'`);
      expect(ruby, label).toMatch(/Epom::|HTTParty\./);
    }
    const gemCall = (id: string) =>
      all.find(({ operation }) => operation.operationId === id)!.operation['x-codeSamples'][2]!.source;
    // the gem resets campaign counters with DELETE and banner counters with POST
    expect(gemCall('limitsResetByDeleteCampaign')).toContain(
      'Epom::Campaign.reset_limits({ campaignId: 100 }, { limitCounters: %w[DAILY_IMPRESSIONS TOTAL_CLICKS] })',
    );
    expect(gemCall('limitsResetBanner')).toContain('Epom::Banner.reset_limits({ bannerId: 1000 }');
    expect(gemCall('limitsSetSite')).toContain('HTTParty.post(');
  });

  it("writes the document's own server and a visible key placeholder into every sample, and no variable left to set", () => {
    const served = buildOpenApiDocument('https://limits.test/live') as unknown as {
      paths: Record<string, Record<string, Operation>>;
    };
    for (const [path, methods] of Object.entries(served.paths))
      for (const [method, operation] of Object.entries(methods)) {
        const label = `${method.toUpperCase()} ${path}`;
        for (const { source } of operation['x-codeSamples']) {
          expect(source, label).toContain('https://limits.test/live');
          expect(source, label).not.toMatch(/\$BASE_URL|\$API_KEY|ENV\[|process\.env|127\.0\.0\.1/);
          if (operation.security.length > 0 && !source.includes('Epom') && !source.includes('HTTParty'))
            expect(source, label).toContain('YOUR_API_KEY');
        }
      }
  });
});
