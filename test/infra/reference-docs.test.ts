import { describe, expect, it } from 'vitest';
import { roleOf, statementsOf, synthesizedTemplate, PRODUCTION_CONTEXT, type Resource } from './template';

const synthesized = synthesizedTemplate(PRODUCTION_CONTEXT);
const { ofType, resources } = synthesized;

/** The full path of an API Gateway resource, from its parts. */
const pathOf = (id: string): string => {
  const resource = resources[id]!;
  const parent = resource.Properties.ParentId as { Ref?: string; 'Fn::GetAtt'?: string[] };
  const part = String(resource.Properties.PathPart);
  return parent.Ref && resources[parent.Ref]?.Type === 'AWS::ApiGateway::Resource'
    ? `${pathOf(parent.Ref)}/${part}`
    : `/${part}`;
};

/** The methods at a path, but the CORS preflight API Gateway answers itself. */
const methodsAt = (path: string): Resource[] =>
  ofType('AWS::ApiGateway::Method')
    .filter(([, method]) => {
      const resource = method.Properties.ResourceId as { Ref?: string };
      return resource.Ref !== undefined && pathOf(resource.Ref) === path && method.Properties.HttpMethod !== 'OPTIONS';
    })
    .map(([, method]) => method);

describe('the API reference, published by the stack at the API origin', () => {
  it('answers GET and HEAD on /docs and /rest-api/openapi.json without a credential or a key, by the reference function', () => {
    const [referenceId] = ofType('AWS::Lambda::Function').find(([id]) => id.startsWith('referenceFunction'))!;
    for (const path of ['/docs', '/rest-api/openapi.json']) {
      const methods = methodsAt(path);
      expect(methods.map((method) => method.Properties.HttpMethod).sort(), path).toEqual(['GET', 'HEAD']);
      for (const method of methods) {
        expect(method.Properties.AuthorizationType, path).toBe('NONE');
        expect(method.Properties.ApiKeyRequired ?? false, path).toBe(false);
        expect(JSON.stringify(method.Properties.Integration), path).toContain(referenceId);
      }
    }
  });

  it('gives the reference function a role that may write its logs and nothing else', () => {
    const statements = statementsOf(synthesized, roleOf(synthesized, 'reference'));
    expect(statements.flatMap((statement) => [statement.Action].flat()).sort()).toEqual([
      'logs:CreateLogStream',
      'logs:PutLogEvents',
    ]);
  });
});
