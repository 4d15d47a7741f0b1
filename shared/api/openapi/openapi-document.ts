import packageJson from '../../../package.json' with { type: 'json' };
import { ROUTES } from '../route-table';
import { codeSamples, PARTNER_READER, type SampleReader } from './code-samples';
import { describeFields } from './glossary';
import { API_GUIDE } from './guide';
import { operationOf } from './operations';
import { specOf } from './operation-specs';
import { errorResponses, statusesOf } from './responses';
import { schemaConverter } from './schema-converter';
import { errorEnvelope } from './schemas';
import { SECURITY_SCHEMES } from './security';
import { webhookDeliveries } from './webhook-deliveries';

/**
 * The OpenAPI 3.1 document of the service: every route of the route table, and the webhooks it sends; its code
 * samples written for `reader` (a partner's own key, or the demo catalog's on `npm start`).
 */
export const buildOpenApiDocument = (serverUrl = 'http://127.0.0.1:3000', reader: SampleReader = PARTNER_READER) => {
  const schemas: Record<string, unknown> = {};
  const jsonSchema = schemaConverter(schemas);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ROUTES) {
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = {
      ...operationOf(route, jsonSchema, schemas),
      'x-codeSamples': codeSamples(route, serverUrl, reader),
    };
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
    servers: [{ url: serverUrl, description: 'the server this document is served by' }],
    tags: [
      { name: 'auth', description: 'Tokens, login, password reset' },
      { name: 'demand-limits', description: 'Advertiser, campaign and banner limits, and the bulk reads' },
      { name: 'supply-limits', description: 'Site and placement limits' },
      { name: 'per-action', description: 'Per-action (goal) conversion limits' },
      { name: 'webhooks', description: 'Subscriptions to signed limit events, each user its own' },
    ],
    paths,
    webhooks: webhookDeliveries(jsonSchema),
    components: {
      schemas,
      securitySchemes: SECURITY_SCHEMES,
      responses: errorResponses(usedErrors, errorSchema),
    },
  };
  describeFields(document.paths);
  describeFields(document.components);
  return document;
};
