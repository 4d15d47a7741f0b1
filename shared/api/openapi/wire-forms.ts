import { BOOLEAN_WORDS } from '../../domain/boolean-text';

/**
 * What a form body or a query string really carries, in JSON Schema: every value is text, so a boolean is also
 * one of the words the service reads as one, and a list is also one comma-separated value. A validator, a gateway
 * or a generated client built from the document then accepts exactly what the service accepts.
 */

type JsonSchema = Record<string, unknown>;

const anyCase = (word: string): string =>
  [...word].map((letter) => (/[a-z]/.test(letter) ? `[${letter}${letter.toUpperCase()}]` : letter)).join('');

const BOOLEAN_TEXT = `^\\s*(${[...BOOLEAN_WORDS.true, ...BOOLEAN_WORDS.false].map(anyCase).join('|')})\\s*$`;

const booleanOnTheWire = ({ type: _type, description, ...rest }: JsonSchema): JsonSchema => ({
  ...(description ? { description } : {}),
  anyOf: [
    { type: 'boolean', ...rest },
    { type: 'string', pattern: BOOLEAN_TEXT, description: 'true/false, 1/0, yes/no or on/off, in any case' },
  ],
});

/** One item of a list as text: a name of the enum, or a positive id. */
const itemText = (items: JsonSchema): string =>
  Array.isArray(items.enum) ? `(${(items.enum as string[]).join('|')})` : '[1-9][0-9]*';

const listOnTheWire = ({ description, ...array }: JsonSchema): JsonSchema => {
  const item = itemText(array.items as JsonSchema);
  return {
    ...(description ? { description } : {}),
    anyOf: [
      {
        type: 'string',
        pattern: `^ *${item} *(, *${item} *)*$`,
        description: 'comma-separated in one value: name=a,b',
      },
      { ...array, description: 'repeated: name=a&name=b (also name[]=a&name[]=b or name[0]=a&name[1]=b)' },
    ],
  };
};

/** One parameter's schema as its text travels in a query string or a form body. */
export const valueOnTheWire = (schema: JsonSchema): JsonSchema =>
  schema.type === 'boolean' ? booleanOnTheWire(schema) : schema.type === 'array' ? listOnTheWire(schema) : schema;

export const isList = (schema: JsonSchema): boolean =>
  Array.isArray(schema.anyOf) && (schema.anyOf as JsonSchema[]).some((branch) => branch.type === 'array');

/**
 * A form body's schema: its values as text; no field required (each may come in the query string instead);
 * unknown fields accepted, as the service accepts them and reports them in `ignoredFields`.
 */
export const formOnTheWire = (form: JsonSchema): JsonSchema => {
  const { properties } = form;
  const rest = Object.fromEntries(
    Object.entries(form).filter(([key]) => !['required', 'additionalProperties', 'properties'].includes(key)),
  );
  return {
    ...rest,
    properties: Object.fromEntries(
      Object.entries((properties as Record<string, JsonSchema>) ?? {}).map(([name, schema]) => [
        name,
        valueOnTheWire(schema),
      ]),
    ),
    additionalProperties: true,
  };
};

/** The encoding of a list, explicit: repeated keys (`explode`), and a comma that may be sent unencoded. */
export const LIST_ENCODING = { style: 'form', explode: true, allowReserved: true } as const;

/** The explicit encoding of a form's lists, as a validator should read them. */
export const formEncoding = (form: JsonSchema): Record<string, typeof LIST_ENCODING> =>
  Object.fromEntries(
    Object.entries((form.properties as Record<string, JsonSchema>) ?? {})
      .filter(([, schema]) => isList(schema))
      .map(([name]) => [name, LIST_ENCODING]),
  );
