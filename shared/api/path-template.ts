/**
 * Path templates: `{name}` stands for one path segment, optionally followed by a literal suffix such as `.do`
 * (`/limits/{type}/{entityId}.do`). API Gateway only knows whole-segment variables, so such a segment is
 * declared there as `{entityId}` and the suffix is stripped by {@link matchPath}.
 */

const PARAMETER = /\{([A-Za-z][A-Za-z0-9]*)\}/g;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const compiled = new Map<string, RegExp>();

const compile = (template: string): RegExp => {
  let pattern = compiled.get(template);
  if (!pattern) {
    const parts = template.split(PARAMETER);
    // split with one capture group alternates literal text and parameter names
    const source = parts.map((part, index) => (index % 2 === 1 ? `(?<${part}>[^/]+?)` : escapeRegExp(part))).join('');
    pattern = new RegExp(`^${source}/?$`);
    compiled.set(template, pattern);
  }
  return pattern;
};

/** The path parameters of `path` under `template`, or undefined when the path does not match it. */
export const matchPath = (template: string, path: string): Record<string, string> | undefined => {
  const match = compile(template).exec(path);
  if (!match) return undefined;
  const parameters: Record<string, string> = {};
  for (const [name, value] of Object.entries(match.groups ?? {})) {
    try {
      parameters[name] = decodeURIComponent(value);
    } catch {
      parameters[name] = value;
    }
  }
  return parameters;
};

/** The API Gateway resource path of a template: every segment holding a parameter becomes that whole parameter. */
export const gatewayResourcePath = (template: string): string =>
  template
    .split('/')
    .map((segment) => {
      const name = /^\{([A-Za-z][A-Za-z0-9]*)\}/.exec(segment)?.[1];
      return name ? `{${name}}` : segment;
    })
    .join('/');
