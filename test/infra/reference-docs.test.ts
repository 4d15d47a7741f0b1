import { describe, expect, it } from 'vitest';
import { COMPRESSED_ABOVE_BYTES, REFERENCE_EDGE } from '../../infra/cdk/reference-docs';
import { REFERENCE_MAX_AGE_SECONDS, REFERENCE_PATHS } from '../../shared/api/openapi/published-reference';
import {
  roleOf,
  statementsOf,
  synthesizedTemplate,
  PRODUCTION_CONTEXT,
  type Resource,
  type SynthesizedTemplate,
} from './template';

const synthesized = synthesizedTemplate(PRODUCTION_CONTEXT);
const { ofType, resources } = synthesized;

interface MethodSetting {
  ResourcePath: string;
  HttpMethod: string;
  CachingEnabled?: boolean;
  CacheTtlInSeconds?: number;
  ThrottlingRateLimit?: number;
  ThrottlingBurstLimit?: number;
  LoggingLevel?: string;
  MetricsEnabled?: boolean;
}

const stageOf = (template: SynthesizedTemplate) => template.ofType('AWS::ApiGateway::Stage')[0]![1].Properties;
const settingsOf = (template: SynthesizedTemplate) => stageOf(template).MethodSettings as MethodSetting[];
/** The stage's settings of the reference's four methods, as CloudFormation names a path (`/~1docs`). */
const REFERENCE_METHODS = Object.values(REFERENCE_PATHS).flatMap((path) =>
  ['GET', 'HEAD'].map((method) => `${path.replaceAll('/', '~1')} ${method}`),
);
const settingKey = (setting: MethodSetting) => `${setting.ResourcePath.slice(1)} ${setting.HttpMethod}`;

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

  it('answers compressed, each of its methods throttled apart from the stage and cached in production', () => {
    const [, api] = ofType('AWS::ApiGateway::RestApi')[0]!;
    expect(api.Properties.MinimumCompressionSize).toBe(COMPRESSED_ABOVE_BYTES);
    expect(stageOf(synthesized)).toMatchObject({
      CacheClusterEnabled: true,
      CacheClusterSize: REFERENCE_EDGE.cacheClusterSize,
    });
    const settings = settingsOf(synthesized);
    const stage = settings.find((setting) => setting.ResourcePath === '/*')!;
    // the partners' answers differ by caller: nothing else is ever cached
    expect(stage.CachingEnabled).toBe(false);
    const reference = settings.filter((setting) => setting !== stage);
    expect(reference.map(settingKey).sort()).toEqual([...REFERENCE_METHODS].sort());
    for (const setting of reference)
      expect(setting, settingKey(setting)).toMatchObject({
        CachingEnabled: true,
        CacheTtlInSeconds: REFERENCE_MAX_AGE_SECONDS,
        ThrottlingRateLimit: REFERENCE_EDGE.throttle.rateLimit,
        ThrottlingBurstLimit: REFERENCE_EDGE.throttle.burstLimit,
        LoggingLevel: stage.LoggingLevel,
        MetricsEnabled: true,
      });
    // however many readers come, the reference takes 1 % of the account's 10,000 requests a second at most
    expect(reference.length * REFERENCE_EDGE.throttle.rateLimit).toBeLessThanOrEqual(100);
    expect(REFERENCE_EDGE.throttle.rateLimit).toBeLessThan(stage.ThrottlingRateLimit!);
  });

  it('caches an answer by the host it was asked on, since the page names its server', () => {
    for (const path of Object.values(REFERENCE_PATHS))
      for (const method of methodsAt(path)) {
        expect(method.Properties.RequestParameters, path).toEqual({ [REFERENCE_EDGE.cacheKey]: false });
        expect((method.Properties.Integration as { CacheKeyParameters: string[] }).CacheKeyParameters).toEqual([
          REFERENCE_EDGE.cacheKey,
        ]);
      }
  });

  it('is compressed and throttled, not cached, in a development stage, which pays for no cache by the hour', () => {
    const dev = synthesizedTemplate();
    expect(dev.ofType('AWS::ApiGateway::RestApi')[0]![1].Properties.MinimumCompressionSize).toBe(
      COMPRESSED_ABOVE_BYTES,
    );
    expect(stageOf(dev).CacheClusterEnabled).toBeUndefined();
    const settings = settingsOf(dev);
    expect(settings.filter((setting) => setting.CachingEnabled)).toEqual([]);
    expect(
      settings.filter((setting) => setting.ThrottlingRateLimit === REFERENCE_EDGE.throttle.rateLimit),
    ).toHaveLength(REFERENCE_METHODS.length);
  });

  it('gives the reference function a role that may write its logs and nothing else', () => {
    const statements = statementsOf(synthesized, roleOf(synthesized, 'reference'));
    expect(statements.flatMap((statement) => [statement.Action].flat()).sort()).toEqual([
      'logs:CreateLogStream',
      'logs:PutLogEvents',
    ]);
  });
});
