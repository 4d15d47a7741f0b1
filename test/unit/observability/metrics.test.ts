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
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
      written += String(chunk);
      return true;
    });
    const { emitMetrics } = await import('../../../shared/observability/metrics');
    emitMetrics({ ResetsFailed: 2 }, new Date('2026-06-10T12:00:00Z'));
    const line = JSON.parse(written.trim()) as {
      _aws: { Timestamp: number; CloudWatchMetrics: { Namespace: string; Dimensions: string[][] }[] };
      ResetsFailed: number;
      stage: string;
      service: string;
    };
    expect(line).toMatchObject({ ResetsFailed: 2, stage: 'prod', service: 'delivery-limits' });
    expect(line._aws.Timestamp).toBe(Date.parse('2026-06-10T12:00:00Z'));
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
