import type { Route } from '../route-table';
import { routeName } from '../route-name';
import { OPERATION_DESCRIPTIONS } from './operation-descriptions';
import { specOf } from './operation-specs';
import {
  dryRunParameter,
  formParts,
  idempotencyKeyParameter,
  pathParameters,
  queryParameters,
} from './openapi-parameters';
import { statusesOf, successResponses } from './responses';
import type { Convert } from './schema-converter';
import { BODY_SIGNED, SECURITY } from './security';

export const operationOf = (route: Route, jsonSchema: Convert, components: Record<string, unknown>) => {
  const spec = specOf(route);
  const form = spec.form ? formParts(route, spec.form, jsonSchema, components) : undefined;
  return {
    operationId: routeName(route),
    summary: route.summary,
    description: `${OPERATION_DESCRIPTIONS[route.operation]}${route.authenticated ? BODY_SIGNED : ''}`,
    tags: [route.family],
    parameters: [
      ...pathParameters(route, jsonSchema),
      ...queryParameters(spec.query, jsonSchema),
      ...(form?.parameters ?? []),
      ...dryRunParameter(route, spec, jsonSchema),
      ...idempotencyKeyParameter(route),
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
  };
};
