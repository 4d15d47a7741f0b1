import { App, Validations } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { FunctionName } from './bundling';
import { DeliveryLimitsStack, type DeliveryLimitsStackProps } from './delivery-limits-stack';

/**
 * Reserved concurrency, when limits are on (`-c reservedConcurrency=true`; on by default in production): the
 * authorizer and the API families keep room of their own, token.do's scrypt cannot starve them, and a delivery
 * backlog runs at most `deliveryMaxConcurrency` recorders. 570 of the account's usual 1,000 in all.
 */
export const DEFAULT_RESERVED_CONCURRENCY: Record<FunctionName, number> = {
  authorizer: 200,
  auth: 20,
  'demand-limits': 150,
  'supply-limits': 80,
  'per-action': 80,
  'delivery-recorder': 20,
  'reset-flush': 10,
  // one concurrent batch per stream shard
  'history-events': 10,
};

/** Context values that must be real before production: placeholders would deploy silently otherwise. */
const PLACEHOLDER = /example\.(com|invalid)/;

export class MissingSettingError extends Error {
  constructor(setting: string, why: string) {
    super(`stage=prod needs -c ${setting}: ${why}`);
    this.name = 'MissingSettingError';
  }
}

/** Settings from `cdk.json` context or `-c key=value`; domain-free defaults, refused in production. */
export const stackProps = (app: App): DeliveryLimitsStackProps => {
  const context = (key: string, fallback: string) => String(app.node.tryGetContext(key) ?? fallback);
  const stageName = context('stage', 'dev');
  const production = context('production', stageName === 'prod' ? 'true' : 'false') === 'true';
  const props: DeliveryLimitsStackProps = {
    stageName,
    production,
    terminationProtection: production,
    logRetention: production ? logs.RetentionDays.SIX_MONTHS : logs.RetentionDays.ONE_MONTH,
    alarmEmail: app.node.tryGetContext('alarmEmail'),
    alarmTopicArn: app.node.tryGetContext('alarmTopicArn'),
    mailFrom: context('mailFrom', 'no-reply@example.com'),
    sesIdentity: context('sesIdentity', 'example.com'),
    appBaseUrl: context('appBaseUrl', 'https://example.com'),
    corsOrigins: app.node.tryGetContext('corsOrigins')?.split(',').filter(Boolean),
    defaultThrottle: {
      rateLimit: Number(context('rateLimit', '50')),
      burstLimit: Number(context('burstLimit', '100')),
    },
    defaultQuotaPerDay: Number(context('quotaPerDay', '100000')),
    anonymousThrottle: {
      rateLimit: Number(context('anonymousRateLimit', '5')),
      burstLimit: Number(context('anonymousBurstLimit', '10')),
    },
    anonymousQuotaPerDay: Number(context('anonymousQuotaPerDay', '10000')),
    tracing: context('tracing', 'false') === 'true',
    ...(context('reservedConcurrency', String(production)) === 'true'
      ? { reservedConcurrency: DEFAULT_RESERVED_CONCURRENCY }
      : {}),
    deliveryMaxConcurrency: Number(context('deliveryMaxConcurrency', '10')),
  };
  if (stageName === 'prod') {
    if (!props.alarmEmail && !props.alarmTopicArn)
      throw new MissingSettingError('alarmEmail=… or -c alarmTopicArn=…', 'alarms must reach someone');
    for (const [setting, value] of [
      ['mailFrom', props.mailFrom],
      ['sesIdentity', props.sesIdentity],
      ['appBaseUrl', props.appBaseUrl],
    ] as const)
      if (PLACEHOLDER.test(value)) throw new MissingSettingError(`${setting}=…`, `"${value}" is a placeholder`);
  }
  return props;
};

export const buildApp = (app = new App()): App => {
  const props = stackProps(app);
  new DeliveryLimitsStack(app, `DeliveryLimits-${props.stageName}`, props);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return app;
};

if (process.argv[1]?.endsWith('app.ts')) {
  try {
    buildApp().synth();
  } catch (error) {
    if (!(error instanceof MissingSettingError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
