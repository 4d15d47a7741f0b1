import { z } from 'zod';
import { schemaRegistry } from './schemas';

export type Schema = z.ZodType;

export type JsonValue = Record<string, unknown>;

/** Converts a schema, moving registered sub-schemas into `components` and pointing at them there. */
export const schemaConverter = (components: Record<string, unknown>) => {
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

export type Convert = (schema: Schema) => JsonValue;
