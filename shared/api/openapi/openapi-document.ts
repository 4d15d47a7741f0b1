import { z } from 'zod';
import { SESSION_COOKIE } from '../session-cookie';
import { DEMAND_GRID } from '../../domain/limits/cap-grid';
import { MAX_IDS_PER_DELETE } from '../../domain/per-action/per-action-change';
import { isWriteRoute, ROUTES, type Operation, type Route } from '../route-table';
import { ERROR_EXAMPLES, requestExamples, responseExamples } from './examples';
import { API_GUIDE } from './guide';
import { describeFields, FIELD_GLOSSARY, pathParameterDescription } from './glossary';
import { OPERATION_DESCRIPTIONS } from './operation-descriptions';
import { codeSamples } from './code-samples';
import { formEncoding, formOnTheWire, isList, LIST_ENCODING, valueOnTheWire } from './wire-forms';
import packageJson from '../../../package.json' with { type: 'json' };
import { REQUEST_ID_HEADER } from '../browser-headers';
import { ENTITY_TYPES, isDemandType, levelNamed, type LimitLevel } from '../../domain/levels';
import {
  booleanText,
  idArray,
  actionLimitEntry,
  bulkCampaignQuery,
  bulkCampaignResult,
  entityTypeParameter,
  errorEnvelope,
  limitReadShape,
  limitWriteForm,
  perActionForm,
  resetForm,
  historyQuery,
  historyPage,
  schemaRegistry,
  servingStatus,
  successMessage,
  writeResult,
} from './schemas';

type Schema = z.ZodType;

interface OperationSpec {
  query?: z.ZodObject;
  form?: z.ZodObject;
  /** The 200 body. */
  response: Schema;
  errors: number[];
}

type JsonValue = Record<string, unknown>;

/** Converts a schema, moving registered sub-schemas into `components` and pointing at them there. */
const schemaConverter = (components: Record<string, unknown>) => {
  // ids are bounded by what they name, not by JavaScript's safe-integer range that zod writes for any integer
  const withoutSafeIntegerBounds = (key: string, value: unknown) =>
    (key === 'minimum' || key === 'maximum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER
      ? undefined
      : value;
  const pointAtComponents = (value: unknown): JsonValue =>
    JSON.parse(JSON.stringify(value, withoutSafeIntegerBounds).replaceAll('"#/$defs/', '"#/components/schemas/'));
  const convert = (schema: Schema): JsonValue => {
    const id = schemaRegistry.get(schema)?.id;
    if (id && !components[id]) {
      // convert a wrapper, so that the registered schema itself lands among the definitions
      convert(z.object({ registered: schema }));
    }
    if (id) return { $ref: `#/components/schemas/${id}` };
    const converted = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      unrepresentable: 'any',
      metadata: schemaRegistry,
    }) as JsonValue;
    // the document states its dialect once (OpenAPI 3.1), not in every schema
    delete converted.$schema;
    const { $defs, ...rest } = converted;
    for (const [name, definition] of Object.entries(($defs as Record<string, unknown>) ?? {}))
      components[name] ??= pointAtComponents(definition);
    return pointAtComponents(rest);
  };
  return convert;
};

const dryRunMark = z.literal(true).optional().describe('present when dryRun=true: nothing was written');

const perActionWriteResult = z.object({
  success: z.literal(true),
  actionLimit: actionLimitEntry
    .partial({ id: true })
    .describe('the record; a dry run that would create it answers it without `id`'),
  actionLimitsEnabled: z.boolean().optional(),
  dryRun: dryRunMark,
});

const gridOf = (level: LimitLevel) => levelNamed(level).grid;

const specOf = (route: Route): OperationSpec => {
  const level = route.level;
  const idField = level ? levelNamed(level).idField : '';
  const specs: Record<Operation, () => OperationSpec> = {
    'auth.token': () => ({
      form: z.object({ username: z.string().max(256), password: z.string().max(256) }),
      response: z.object({ success: z.literal(true), authToken: z.string().regex(/^[0-9a-f]{32}$/), role: z.string() }),
      errors: [400, 401],
    }),
    'auth.login': () => ({
      query: z.object({
        json: booleanText.optional().describe('true: answer JSON instead of redirecting'),
        callback: z.string().max(64).optional().describe('JSONP: a plain identifier path such as app.onLogin'),
      }),
      response: z.object({ success: z.boolean(), redirectUrl: z.string().optional(), error: z.string().optional() }),
      errors: [400, 404],
    }),
    'auth.forgot': () => ({
      form: z.object({ email: z.string().max(320).optional() }),
      response: successMessage,
      errors: [400],
    }),
    'auth.resetPassword': () => ({
      form: z.object({ token: z.string(), password: z.string().min(10).max(256) }),
      response: successMessage,
      errors: [400, 404],
    }),
    'limits.read': () => ({
      query: z.object({ timezoneOffset: z.int().min(-840).max(840).optional() }),
      response: limitReadShape(gridOf(level!), idField),
      errors: [400, 401, 403, 404],
    }),
    'limits.set': () => ({
      form: limitWriteForm(gridOf(level!)),
      response: writeResult(gridOf(level!), idField),
      errors: [400, 401, 403, 404],
    }),
    'limits.update': () => ({
      form: limitWriteForm(gridOf(level!)),
      response: writeResult(gridOf(level!), idField),
      errors: [400, 401, 403, 404],
    }),
    'limits.reset': () => ({ form: resetForm, response: successMessage, errors: [400, 401, 403, 404, 503] }),
    'limits.resetByDelete': () => ({ form: resetForm, response: successMessage, errors: [400, 401, 403, 404, 503] }),
    'limits.delete': () => ({ response: successMessage, errors: [401, 403, 404] }),
    'limits.status': () => ({ response: servingStatus, errors: [401, 403, 404] }),
    'limits.history': () => ({ query: historyQuery, response: historyPage, errors: [400, 401, 403, 404] }),
    'limits.bulkCampaigns': () => ({
      query: bulkCampaignQuery,
      response: bulkCampaignResult,
      errors: [400, 401, 403, 404],
    }),
    'limits.bulkBanners': () => ({
      query: z.object({
        bannerIds: idArray.min(1).describe('the banners to read: repeated, comma-separated or bracketed'),
      }),
      response: z.array(limitReadShape(DEMAND_GRID, 'bannerId')),
      errors: [400, 401, 403, 404],
    }),
    'perAction.list': () => ({
      response: z.object({
        success: z.literal(true),
        actionLimits: z.array(actionLimitEntry),
        actionLimitsEnabled: z.boolean().optional(),
      }),
      errors: [400, 401, 403, 404],
    }),
    'perAction.add': () => ({ form: perActionForm, response: perActionWriteResult, errors: [400, 401, 403, 404] }),
    'perAction.update': () => ({
      form: perActionForm,
      response: perActionWriteResult,
      errors: [400, 401, 403, 404],
    }),
    'perAction.delete': () => ({
      form: z.object({
        type: entityTypeParameter,
        entityId: z.int().positive(),
        ids: idArray
          .min(1)
          .max(MAX_IDS_PER_DELETE)
          .describe(`the per-action limit ids to delete, all or none: at most ${MAX_IDS_PER_DELETE}`),
      }),
      response: z.object({ success: z.literal(true), deletedIds: z.array(z.int()), dryRun: dryRunMark }),
      errors: [400, 401, 403, 404],
    }),
    'perAction.enable': () => ({
      response: z.object({
        success: z.literal(true),
        entityId: z.int(),
        actionLimitsEnabled: z.boolean(),
        dryRun: dryRunMark,
      }),
      errors: [400, 401, 403, 404],
    }),
    'perAction.disable': () => ({
      response: z.object({
        success: z.literal(true),
        entityId: z.int(),
        actionLimitsEnabled: z.boolean(),
        dryRun: dryRunMark,
      }),
      errors: [400, 401, 403, 404],
    }),
  };
  return specs[route.operation]();
};

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad input (`INVALID_PARAMETER`); `errors` names each offending parameter. Nothing was changed.',
  401: 'No or bad credentials (`UNAUTHENTICATED`).',
  403: 'Authenticated but not allowed: `PERMISSION_REQUIRED` names the permission, `NO_ACCESS` a missing share.',
  404: 'Unknown route, entity or record (`NOT_FOUND`), or no limits to change (`LIMITS_NOT_SET`).',
  405: 'The path exists with other methods (`METHOD_NOT_ALLOWED`).',
  413: 'The body is over 1 MiB (`BODY_TOO_LARGE`).',
  429: 'Over a rate or a daily quota (`RATE_LIMITED`), answered by API Gateway or AWS WAF, or by the service for a partner signing in the form body; retry after `Retry-After` seconds, with backoff.',
  431: 'The request headers are too large (`HEADERS_TOO_LARGE`).',
  500: 'A fault of the service (`INTERNAL_ERROR`); quote `requestId`.',
  503: 'A dependency is busy or unavailable (`SERVICE_BUSY`), or credentials could not be checked (`AUTH_UNAVAILABLE`); retry after `Retry-After` seconds. Nothing was changed.',
  502: "API Gateway could not use the function's answer (`INTERNAL_ERROR`); quote `requestId`.",
  504: 'The function did not answer within 29 seconds (`INTERNAL_ERROR`, API Gateway); a write may have landed: read before retrying.',
};

/** What any route may answer besides its own errors: bad ids and parameters, methods, bodies, metering, faults. */
const statusesOf = (route: Route, own: readonly number[]): number[] =>
  [
    ...new Set([
      ...own,
      400,
      ...(route.authenticated ? [401] : []),
      405,
      ...(route.method === 'GET' ? [] : [413]),
      429,
      431,
      500,
      502,
      503,
      504,
    ]),
  ].sort();

const operationId = (route: Route): string =>
  [...route.operation.split('.'), ...(route.level ? [route.level] : [])]
    .map((part, index) => (index === 0 ? part : part[0]!.toUpperCase() + part.slice(1)))
    .join('');

type Convert = (schema: Schema) => JsonValue;

const SWITCHES: readonly Operation[] = ['perAction.enable', 'perAction.disable'];

const pathParameters = (route: Route, jsonSchema: Convert) =>
  [...route.path.matchAll(/\{([A-Za-z]+)\}/g)].map(([, name]) => ({
    name: name!,
    in: 'path' as const,
    required: true,
    description: pathParameterDescription(name!),
    schema:
      name === 'type'
        ? SWITCHES.includes(route.operation)
          ? { type: 'string', enum: ENTITY_TYPES.filter(isDemandType), description: 'demand types only' }
          : jsonSchema(entityTypeParameter)
        : name === 'authToken'
          ? { type: 'string', pattern: '^[0-9a-fA-F]{32}$' }
          : { type: 'integer', minimum: 1 },
  }));

const REQUEST_ID = { description: "API Gateway's id of the request", schema: { type: 'string' } };

/** A parameter of the query string, its text read as the service reads it. */
const queryParameter = (name: string, schema: JsonValue, required: boolean, where = '') => ({
  name,
  in: 'query' as const,
  required,
  description: `${(schema.description as string | undefined) ?? FIELD_GLOSSARY[name] ?? name}${where}`,
  schema: valueOnTheWire(schema),
  ...(isList(valueOnTheWire(schema)) ? LIST_ENCODING : {}),
});

/** A list the service needs may be written `name[]=…` or `name[N]=…`, which OpenAPI sees as other parameters. */
const BRACKETED_TOO = ' (required: as name=a,b, name=a&name=b, name[]=a or name[0]=a)';

const queryParameters = (schema: z.ZodObject | undefined, jsonSchema: Convert) =>
  Object.entries(schema?.shape ?? {}).map(([name, field]) => {
    const converted = jsonSchema(field as Schema);
    const required = !(field as Schema).safeParse(undefined).success;
    const list = isList(valueOnTheWire(converted));
    return queryParameter(name, converted, required && !list, required && list ? BRACKETED_TOO : '');
  });

/** Every write route takes `dryRun`; where its own form or query does not list it, it is listed as a query parameter. */
const dryRunParameter = (route: Route, spec: OperationSpec, jsonSchema: Convert) =>
  isWriteRoute(route) && !spec.form?.shape.dryRun && !spec.query?.shape.dryRun
    ? [
        queryParameter(
          'dryRun',
          {
            ...(jsonSchema(booleanText) as Record<string, JsonValue>),
            description:
              'true: every check runs and the answer is the write\'s own plus "dryRun": true; nothing changes',
          },
          false,
        ),
      ]
    : [];

/**
 * A form's fields, each accepted in the query string too (as Epom's clients send them) and the body wins: both
 * are declared, neither required, and a field the service needs says so in its description.
 */
const formParts = (route: Route, form: z.ZodObject, jsonSchema: Convert, components: Record<string, unknown>) => {
  const converted = jsonSchema(form);
  const component = (converted.$ref as string | undefined)?.split('/').pop();
  const resolved = (component ? components[component] : converted) as JsonValue;
  const needed = new Set(
    Object.entries(form.shape)
      .filter(([, field]) => !(field as Schema).safeParse(undefined).success)
      .map(([name]) => name),
  );
  const wired = formOnTheWire(resolved);
  if (component) components[component] = wired;
  const examples = requestExamples(route.operation);
  return {
    parameters: Object.entries(wired.properties as Record<string, JsonValue>).map(([name, schema]) =>
      queryParameter(
        name,
        schema,
        false,
        needed.has(name)
          ? ' (required: in the query string or the form body)'
          : ' (in the query string or the form body; the body wins)',
      ),
    ),
    requestBody: {
      required: false,
      content: {
        'application/x-www-form-urlencoded': {
          schema: component ? converted : wired,
          encoding: formEncoding(wired),
          ...(examples ? { examples } : {}),
        },
      },
    },
  };
};

const LOGIN_JSONP = {
  schema: { type: 'string' },
  examples: {
    jsonp: { summary: 'callback=app.onLogin', value: '/**/app.onLogin({"success":true,"redirectUrl":"/index.do"});' },
  },
};

const SESSION_SET = { description: 'the session cookie, when the login succeeded', schema: { type: 'string' } };

const successResponses = (route: Route, spec: OperationSpec, jsonSchema: Convert) => {
  const examples = responseExamples(route.operation, route.level ? levelNamed(route.level).idField : '');
  const json = { 'application/json': { schema: jsonSchema(spec.response), examples } };
  if (route.operation !== 'auth.login')
    return { '200': { description: 'Success', headers: { [REQUEST_ID_HEADER]: REQUEST_ID }, content: json } };
  return {
    '200': {
      description: 'With json=true: the result as JSON; with callback: JSONP (failures too, with status 200)',
      headers: { [REQUEST_ID_HEADER]: REQUEST_ID, 'Set-Cookie': SESSION_SET },
      content: { ...json, 'application/javascript': LOGIN_JSONP },
    },
    '302': {
      description: 'Logged in; redirect to /index.do (neither json nor callback given)',
      headers: {
        [REQUEST_ID_HEADER]: REQUEST_ID,
        Location: { description: 'where the browser goes: /index.do', schema: { type: 'string' } },
        'Set-Cookie': SESSION_SET,
      },
    },
  };
};

const SECURITY = [{ apiKey: [] }, { hashUsername: [], hashTimestamp: [], hash: [] }, { session: [] }];

/**
 * The hash parameters may also come in a form body, where OpenAPI can place no credential: the gateway lets such
 * a request through and the service authenticates it from the body. `{}` is that alternative, and says so.
 */
const BODY_SIGNED =
  '\n\n**Credentials**: `X-Api-Key`, the hash parameters in the query string, or the session cookie; or the hash parameters (`username`, `timestamp`, `hash`) in the form body, which the service checks itself: that is the empty alternative `{}` of `security`, since OpenAPI has no scheme for a credential in a body. A request with no credential anywhere answers 401.';

const operationOf = (route: Route, jsonSchema: Convert, components: Record<string, unknown>) => {
  const spec = specOf(route);
  const form = spec.form ? formParts(route, spec.form, jsonSchema, components) : undefined;
  return {
    operationId: operationId(route),
    summary: route.summary,
    description: `${OPERATION_DESCRIPTIONS[route.operation]}${route.authenticated ? BODY_SIGNED : ''}`,
    tags: [route.family],
    parameters: [
      ...pathParameters(route, jsonSchema),
      ...queryParameters(spec.query, jsonSchema),
      ...(form?.parameters ?? []),
      ...dryRunParameter(route, spec, jsonSchema),
    ],
    ...(form ? { requestBody: form.requestBody } : {}),
    responses: {
      ...successResponses(route, spec, jsonSchema),
      ...Object.fromEntries(
        statusesOf(route, spec.errors).map((status) => [
          String(status),
          { $ref: `#/components/responses/Error${status}` },
        ]),
      ),
    },
    security: route.authenticated ? [...SECURITY, {}] : [],
    'x-codeSamples': codeSamples(route),
  };
};

/** The OpenAPI 3.1 document of the service: every route of the route table, nothing else. */
export const buildOpenApiDocument = (serverUrl = 'http://127.0.0.1:3000') => {
  const schemas: Record<string, unknown> = {};
  const jsonSchema = schemaConverter(schemas);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ROUTES) {
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operationOf(route, jsonSchema, schemas);
  }
  const usedErrors = [...new Set(ROUTES.flatMap((route) => statusesOf(route, specOf(route).errors)))].sort();
  const errorSchema = jsonSchema(errorEnvelope);
  const document = {
    openapi: '3.1.0',
    info: {
      title: 'Delivery Limits API',
      version: packageJson.version,
      description: API_GUIDE,
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: serverUrl, description: 'the local server (npm start); in AWS, the stack output ApiUrl' }],
    tags: [
      { name: 'auth', description: 'Tokens, login, password reset' },
      { name: 'demand-limits', description: 'Advertiser, campaign and banner limits, and the bulk reads' },
      { name: 'supply-limits', description: 'Site and placement limits' },
      { name: 'per-action', description: 'Per-action (goal) conversion limits' },
    ],
    paths,
    components: {
      schemas,
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'An API key issued by the operator' },
        hashUsername: {
          type: 'apiKey',
          in: 'query',
          name: 'username',
          description: 'Epom hash authentication: the user name',
        },
        hashTimestamp: {
          type: 'apiKey',
          in: 'query',
          name: 'timestamp',
          description: 'Unix milliseconds, within 5 minutes of the server clock, once per user',
        },
        hash: {
          type: 'apiKey',
          in: 'query',
          name: 'hash',
          description:
            'md5hex(md5hex(password) + timestamp), for example 86b6b8442e7d092d3b0f8c03754125f7 for demo / demo-password at 1781092800000; the three may also come in a form body',
        },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: 'The session cookie set by login.do after token.do; 8 hours',
        },
      },
      responses: Object.fromEntries(
        usedErrors.map((status) => [
          `Error${status}`,
          {
            description: ERROR_DESCRIPTIONS[status],
            headers: {
              [REQUEST_ID_HEADER]: REQUEST_ID,
              ...(status === 405
                ? { Allow: { description: 'the methods the path has', schema: { type: 'string' } } }
                : {}),
              ...(status === 503
                ? { 'Retry-After': { description: 'seconds to wait before retrying', schema: { type: 'integer' } } }
                : {}),
            },
            content: { 'application/json': { schema: errorSchema, examples: ERROR_EXAMPLES[status] } },
          },
        ]),
      ),
    },
  };
  describeFields(document.paths);
  describeFields(document.components);
  return document;
};
