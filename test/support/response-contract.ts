import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { matchPath } from '../../shared/api/path-template';
import { ROUTES } from '../../shared/api/route-table';
import { buildOpenApiDocument } from '../../shared/api/openapi/openapi-document';

type Responses = Record<string, { $ref?: string; content?: Record<string, unknown> }>;
type OpenApi = {
  paths: Record<string, Record<string, { responses: Responses }>>;
  components: { responses: Responses };
};

const DOCUMENT_ID = 'https://delivery-limits.local/openapi.json';
const document = buildOpenApiDocument() as unknown as OpenApi;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ ...(document as object), $id: DOCUMENT_ID });

const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const validators = new Map<string, ValidateFunction | 'undeclared' | 'no body'>();

/** The validator of the JSON answer a route declares for a status; 'undeclared' when it declares none. */
const validatorOf = (path: string, method: string, status: number): ValidateFunction | 'undeclared' | 'no body' => {
  const key = `${method} ${path} ${status}`;
  const known = validators.get(key);
  if (known) return known;
  const declared = document.paths[path]?.[method]?.responses[String(status)];
  let validator: ValidateFunction | 'undeclared' | 'no body' = 'undeclared';
  const response = declared?.$ref ? document.components.responses[declared.$ref.split('/').pop()!] : declared;
  if (declared && !response?.content?.['application/json']) validator = 'no body';
  else if (declared) {
    const location = declared.$ref
      ? `${declared.$ref}/content/application~1json/schema`
      : `#/${pointer('paths', path, method, 'responses', String(status))}/content/application~1json/schema`;
    validator = ajv.compile({ $ref: `${DOCUMENT_ID}${location}` });
  }
  validators.set(key, validator);
  return validator;
};

export interface ContractBreach {
  request: string;
  problem: string;
}

/**
 * Whether an answer of the API matches the OpenAPI document: its status is declared for the route, and a JSON body
 * validates against that status's schema (JSON Schema 2020-12). Paths outside the route table are not judged.
 */
export const checkAnswer = (method: string, url: URL, status: number, contentType: string, body: string) => {
  const route = ROUTES.find((candidate) => candidate.method === method && matchPath(candidate.path, url.pathname));
  if (!route) return undefined;
  const request = `${method} ${url.pathname} → ${status}`;
  const validator = validatorOf(route.path, method.toLowerCase(), status);
  if (validator === 'undeclared') return { request, problem: `status ${status} is not declared for ${route.path}` };
  if (validator === 'no body' || !contentType.startsWith('application/json')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { request, problem: 'the body is not JSON' };
  }
  if (validator(value)) return undefined;
  return { request, problem: `${ajv.errorsText(validator.errors)} in ${body.slice(0, 300)}` };
};
