import { Ajv2020 } from 'ajv/dist/2020.js';
import { buildOpenApiDocument } from '../../shared/api/openapi/openapi-document';
import type { ReceivedWebhook } from './webhook-receiver';

type Parameter = { name: string; in: string; required: boolean; schema: object };
type WebhookOperation = { parameters: Parameter[] };

const DOCUMENT_ID = 'https://delivery-limits.local/openapi.json';
const document = buildOpenApiDocument() as unknown as { webhooks: Record<string, { post: WebhookOperation }> };
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ ...(document as object), $id: DOCUMENT_ID });

/**
 * What a received delivery breaks of the OpenAPI document's `webhooks` entry for its kind (the body's `type`):
 * a header missing or out of its schema, a body out of the request body's schema. Empty when it matches.
 */
export const webhookContractProblems = (request: ReceivedWebhook): string[] => {
  const body = JSON.parse(request.body) as { type?: string };
  const operation = document.webhooks[String(body.type)]?.post;
  if (!operation) return [`no webhook is documented for type ${String(body.type)}`];
  const problems: string[] = [];
  for (const header of operation.parameters.filter((parameter) => parameter.in === 'header')) {
    const value = request.headers[header.name];
    if (typeof value !== 'string') problems.push(`header ${header.name} missing`);
    else if (!ajv.validate(header.schema, value)) problems.push(`header ${header.name}: ${ajv.errorsText()}`);
  }
  const location = `#/webhooks/${String(body.type)}/post/requestBody/content/application~1json/schema`;
  if (!ajv.validate({ $ref: `${DOCUMENT_ID}${location}` }, body)) problems.push(`body: ${ajv.errorsText()}`);
  return problems;
};
