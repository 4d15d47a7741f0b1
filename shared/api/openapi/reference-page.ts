import type { buildOpenApiDocument } from './openapi-document';

type Document = ReturnType<typeof buildOpenApiDocument>;
type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  pattern?: string;
};
interface OperationObject {
  operationId: string;
  summary: string;
  tags: string[];
  parameters: { name: string; in: string; required: boolean; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description?: string; $ref?: string }>;
  security: unknown[];
}

const escape = (text: unknown): string =>
  String(text ?? '').replace(
    /[&<>"']/g,
    (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!,
  );

const typeOf = (schema: JsonSchema): string => {
  const base = schema.enum ? schema.enum.map(String).join(' | ') : [schema.type ?? 'any'].flat().join(' | ');
  const range =
    schema.minimum !== undefined || schema.maximum !== undefined
      ? ` (${schema.minimum ?? ''}..${schema.maximum ?? ''})`
      : '';
  return `${base}${range}`;
};

const fieldRows = (rows: { name: string; where: string; required: boolean; schema: JsonSchema }[]) =>
  rows.length === 0
    ? ''
    : `<table><tr><th>parameter</th><th>in</th><th>type</th><th>notes</th></tr>${rows
        .map(
          (row) =>
            `<tr><td><code>${escape(row.name)}</code>${row.required ? ' *' : ''}</td><td>${escape(row.where)}</td><td>${escape(typeOf(row.schema))}</td><td>${escape(row.schema.description)}</td></tr>`,
        )
        .join('')}</table>`;

/** A static API reference page rendered from the OpenAPI document: no script, nothing fetched. */
export const renderReferencePage = (document: Document): string => {
  const components = document.components.schemas as Record<string, JsonSchema>;
  const sharedResponses = document.components.responses as Record<string, { description?: string }>;
  const resolve = (schema: JsonSchema | undefined): JsonSchema | undefined =>
    schema?.$ref ? components[schema.$ref.replace('#/components/schemas/', '')] : schema;
  const sections = document.tags.map((tag) => {
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods as Record<string, OperationObject>)
        .filter(([, operation]) => operation.tags.includes(tag.name))
        .map(([method, operation]) => {
          const form = resolve(operation.requestBody?.content['application/x-www-form-urlencoded']?.schema);
          const rows = [
            ...operation.parameters.map((parameter) => ({
              name: parameter.name,
              where: parameter.in,
              required: parameter.required,
              schema: parameter.schema,
            })),
            ...Object.entries(form?.properties ?? {}).map(([name, schema]) => ({
              name,
              where: 'form',
              required: form?.required?.includes(name) ?? false,
              schema,
            })),
          ];
          const responses = Object.entries(operation.responses)
            .map(
              ([status, response]) =>
                `<code>${escape(status)}</code> ${escape(response.description ?? sharedResponses[response.$ref?.split('/').pop() ?? '']?.description)}`,
            )
            .join(' · ');
          return `<section id="${escape(operation.operationId)}"><h3><span class="method">${escape(method.toUpperCase())}</span> <code>${escape(path)}</code></h3><p>${escape(operation.summary)}${operation.security.length ? ' — needs credentials' : ''}</p>${fieldRows(rows)}<p>${responses}</p></section>`;
        }),
    );
    return `<h2>${escape(tag.name)}</h2><p>${escape(tag.description)}</p>${operations.join('')}`;
  });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(document.info.title)}</title>
<style>body{font:14px/1.5 system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left;vertical-align:top}.method{background:#245;color:#fff;padding:0 .4rem;border-radius:3px}section{border-top:1px solid #eee;padding-top:.5rem}</style>
</head><body><h1>${escape(document.info.title)} ${escape(document.info.version)}</h1><p>${escape(document.info.description)}</p><p>Machine-readable: <a href="/rest-api/openapi.json">/rest-api/openapi.json</a></p>${sections.join('')}</body></html>`;
};
