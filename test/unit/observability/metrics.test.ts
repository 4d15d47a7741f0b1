import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('metrics', () => {
  it('are one EMF line in the stage namespace, with the service and the stage as dimensions, inside Lambda only', async () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'reset-flush');
    vi.stubEnv('LOG_LEVEL', 'info');
    vi.stubEnv('METRICS_NAMESPACE', 'DeliveryLimits/prod');
    vi.stubEnv('STAGE', 'prod');
    let written = '';
    let warned = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
      written += String(chunk);
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => {
      warned += String(chunk);
      return true;
    });
    // CloudWatch takes a metric dated up to 14 days back: an hour ago, to the second
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 3_600_000);
    const { emitMetrics } = await import('../../../shared/observability/metrics');
    emitMetrics({ ResetsFailed: 2 }, at);
    const line = JSON.parse(written.trim()) as {
      _aws: { Timestamp: number; CloudWatchMetrics: { Namespace: string; Dimensions: string[][] }[] };
      ResetsFailed: number;
      stage: string;
      service: string;
    };
    expect(line).toMatchObject({ ResetsFailed: 2, stage: 'prod', service: 'delivery-limits' });
    expect(line._aws.Timestamp).toBe(at.getTime());
    expect(warned).toBe('');
    expect(line._aws.CloudWatchMetrics[0]!.Namespace).toBe('DeliveryLimits/prod');
    expect(line._aws.CloudWatchMetrics[0]!.Dimensions[0]!.sort()).toEqual(['service', 'stage']);
  });

  it('are not written outside Lambda', async () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', '');
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const { emitMetrics } = await import('../../../shared/observability/metrics');
    emitMetrics({ ResetsFailed: 1 }, new Date());
    expect(write).not.toHaveBeenCalled();
  });
});
