import type { z } from 'zod';
import { ENTITY_TYPES, isDemandType } from '../../domain/levels';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_HEADER_PATTERN } from '../idempotency-headers';
import { isWriteRoute, type Operation, type Route } from '../route-table';
import { requestExamples } from './examples';
import { FIELD_GLOSSARY, pathParameterDescription } from './glossary';
import type { OperationSpec } from './operation-specs';
import type { Convert, JsonValue, Schema } from './schema-converter';
import { booleanText, entityTypeParameter } from './schemas';
import { formEncoding, formOnTheWire, isList, LIST_ENCODING, valueOnTheWire } from './wire-forms';

const SWITCHES: readonly Operation[] = ['perAction.enable', 'perAction.disable'];

export const pathParameters = (route: Route, jsonSchema: Convert) =>
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
          : name === 'webhookId'
            ? { type: 'string', pattern: '^wh_[a-z2-7]{20}$' }
            : { type: 'integer', minimum: 1 },
  }));

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

export const queryParameters = (schema: z.ZodObject | undefined, jsonSchema: Convert) =>
  Object.entries(schema?.shape ?? {}).map(([name, field]) => {
    const converted = jsonSchema(field as Schema);
    const required = !(field as Schema).safeParse(undefined).success;
    const list = isList(valueOnTheWire(converted));
    return queryParameter(name, converted, required && !list, required && list ? BRACKETED_TOO : '');
  });

/** Every write route takes `dryRun`; where its own form or query does not list it, it is listed as a query parameter. */
export const dryRunParameter = (route: Route, spec: OperationSpec, jsonSchema: Convert) =>
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

/** Every write honours an Idempotency-Key (the family pipeline claims it for any authenticated POST or DELETE). */
export const idempotencyKeyParameter = (route: Route) =>
  isWriteRoute(route)
    ? [
        {
          name: IDEMPOTENCY_HEADER,
          in: 'header' as const,
          required: false,
          description:
            'Makes the write safe to retry (IETF draft httpapi-idempotency-key-header), per caller: the same key and request within 24 hours answer the stored answer (`Idempotent-Replayed: true`) and write nothing; another request under the key is 422 `IDEMPOTENCY_KEY_REUSED`; while the first is in flight, 409 `IDEMPOTENCY_KEY_IN_USE`. Any unique text, such as a UUID, in quotes.',
          schema: { type: 'string', pattern: IDEMPOTENCY_HEADER_PATTERN },
          example: '"8e03978e-40d5-43e8-bc93-6894a57f9324"',
        },
      ]
    : [];

/**
 * A form's fields, each accepted in the query string too (as Epom's clients send them) and the body wins: both
 * are declared, neither required, and a field the service needs says so in its description.
 */
export const formParts = (
  route: Route,
  form: z.ZodObject,
  jsonSchema: Convert,
  components: Record<string, unknown>,
) => {
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
