import { App, Validations } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { DeliveryLimitsStack, type DeliveryLimitsStackProps } from './delivery-limits-stack';

/** Settings from `cdk.json` context or `-c key=value`; domain-free defaults. */
export const stackProps = (app: App): DeliveryLimitsStackProps => {
  const context = (key: string, fallback: string) => String(app.node.tryGetContext(key) ?? fallback);
  const stageName = context('stage', 'dev');
  const production = context('production', 'false') === 'true';
  return {
    stageName,
    production,
    logRetention: production ? logs.RetentionDays.SIX_MONTHS : logs.RetentionDays.ONE_MONTH,
    alarmEmail: app.node.tryGetContext('alarmEmail'),
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
  };
};

export const buildApp = (app = new App()): App => {
  const props = stackProps(app);
  new DeliveryLimitsStack(app, `DeliveryLimits-${props.stageName}`, props);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return app;
};

if (process.argv[1]?.endsWith('app.ts')) buildApp().synth();
