import { App, Validations } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { FunctionName } from './bundling';
import { DeliveryLimitsStack } from './delivery-limits-stack';
import type { DeliveryLimitsStackProps } from './stack-props';
import { checkContradictions, loadSettings } from './load-settings';
import { UNRESERVED_MINIMUM } from './quota-checklist';
import { SettingError } from './setting-error';
import { WAF_WINDOW_SECONDS } from './web-acl';
import { DEFAULT_PLAN, partnerPlan } from '../../shared/domain/metering/partner-quota';
import { DEFAULT_FUTURE_TOLERANCE_MS } from '../../shared/domain/delivery/contributions';
import { parseAutoSharding } from '../../shared/domain/delivery/counter-shards';

/**
 * Reserved concurrency, when asked for (`-c reservedConcurrency=true`): the authorizer and the API families keep
 * room of their own and token.do's scrypt cannot starve them. The recorder's is sized from
 * `deliveryMaxConcurrency` (`-c recorderReservedConcurrency` overrides it, never below); these are the others'.
 */
export const DEFAULT_RESERVED_CONCURRENCY: Record<FunctionName, number> = {
  authorizer: 200,
  auth: 20,
  'demand-limits': 150,
  'supply-limits': 80,
  'per-action': 80,
  // partners manage subscriptions seldom
  webhooks: 10,
  'delivery-recorder': 10,
  'reset-flush': 10,
  // one concurrent batch per stream shard
  'history-events': 10,
  // deliveries wait on partners' endpoints: a slow one must not hold many containers
  'webhook-dispatcher': 20,
};

/** Context values that must be real before production: placeholders would deploy silently otherwise. */
const PLACEHOLDER = /example\.(com|invalid)/;

export { SettingError };

const missing = (setting: string, why: string) => new SettingError(`production=true needs -c ${setting}: ${why}`);

/** Reservations on, within the account's quota (`accountConcurrencyLimit`, from Service Quotas), or off. */
const reservations = (
  context: (key: string, fallback: string) => string,
  recorders: number,
): Partial<Record<FunctionName, number>> | undefined => {
  if (context('reservedConcurrency', 'false') !== 'true') return undefined;
  const limit = Number(context('accountConcurrencyLimit', 'NaN'));
  const sized = {
    ...DEFAULT_RESERVED_CONCURRENCY,
    'delivery-recorder': Number(context('recorderReservedConcurrency', String(recorders))),
  };
  const reserved = Object.values(sized).reduce((sum, count) => sum + count, 0);
  if (!Number.isInteger(limit))
    throw new SettingError(
      `reservedConcurrency=true needs -c accountConcurrencyLimit=<the account's Lambda concurrent executions quota in this region>: the reservations take ${reserved}`,
    );
  if (reserved > limit - UNRESERVED_MINIMUM)
    throw new SettingError(
      `reservedConcurrency=true reserves ${reserved} concurrent executions, but an account limit of ${limit} leaves room for ${Math.max(0, limit - UNRESERVED_MINIMUM)} (Lambda keeps ${UNRESERVED_MINIMUM} unreserved): request a quota of at least ${reserved + UNRESERVED_MINIMUM} first, or deploy without reservations`,
    );
  return sized;
};

/** What the functions may run at once: their reservations, or what they would reserve (the quota checklist). */
export const plannedConcurrency = (props: DeliveryLimitsStackProps): number =>
  Object.values(
    props.reservedConcurrency ?? {
      ...DEFAULT_RESERVED_CONCURRENCY,
      'delivery-recorder': props.deliveryMaxConcurrency,
    },
  ).reduce((sum, count) => sum + count, 0);

/** Automatic sharding (`autoShardWritesPerSecond`, `autoShardCount`): both or neither, checked before any deploy. */
const checkAutoSharding = (app: App): void => {
  const setting = (key: string) => [key, app.node.tryGetContext(key)?.toString()] as const;
  try {
    parseAutoSharding(setting('autoShardWritesPerSecond'), setting('autoShardCount'));
  } catch (error) {
    throw new SettingError((error as Error).message);
  }
};

/** The edge: usage plans sized for form-body partners, and AWS WAF's per-address limits (docs/quotas.md). */
const edgeProps = (context: (key: string, fallback: string) => string) => {
  const rateLimit = Number(context('rateLimit', String(DEFAULT_PLAN.rateLimit)));
  const burstLimit = Number(context('burstLimit', String(DEFAULT_PLAN.burstLimit)));
  const defaultQuotaPerDay = Number(context('quotaPerDay', String(DEFAULT_PLAN.quotaPerDay)));
  const partner = partnerPlan({ rateLimit, burstLimit, quotaPerDay: defaultQuotaPerDay });
  const formBodyPartners = Number(context('formBodyPartners', '10'));
  const credentialLessPerIpLimit = Number(context('wafRateLimitPerIp', String(partner.rateLimit * WAF_WINDOW_SECONDS)));
  const requestsPerIpLimit = Number(context('wafRequestsPerIp', String(2 * credentialLessPerIpLimit)));
  if (requestsPerIpLimit < credentialLessPerIpLimit)
    throw new SettingError(
      `wafRequestsPerIp=${requestsPerIpLimit} contradicts wafRateLimitPerIp=${credentialLessPerIpLimit}: every request from an address may not be held below its credential-less ones`,
    );
  return {
    defaultThrottle: { rateLimit, burstLimit },
    defaultQuotaPerDay,
    // the anonymous plan carries every form-body partner at a keyed partner's numbers; strangers are held per address
    anonymousThrottle: {
      rateLimit: Number(context('anonymousRateLimit', String(partner.rateLimit * formBodyPartners))),
      burstLimit: Number(context('anonymousBurstLimit', String(partner.burstLimit * formBodyPartners))),
    },
    credentialLessPerIpLimit,
    requestsPerIpLimit,
  };
};

/** What production cannot do without: an alarm destination, real addresses, a runbook operators can open. */
const checkProduction = (props: DeliveryLimitsStackProps): void => {
  if (!props.alarmEmail && !props.alarmTopicArn)
    throw missing('alarmEmail=… or -c alarmTopicArn=…', 'alarms must reach someone');
  for (const [setting, value] of [
    ['mailFrom', props.mailFrom],
    ['sesIdentity', props.sesIdentity],
    ['appBaseUrl', props.appBaseUrl],
  ] as const)
    if (PLACEHOLDER.test(value)) throw missing(`${setting}=…`, `"${value}" is a placeholder`);
  if (!/^https:\/\/[^/]+\//.test(props.runbookUrl))
    throw missing(
      'runbookUrl=https://…',
      `alarms link the runbook, and "${props.runbookUrl}" is not an absolute address`,
    );
};

/** Settings from `cdk.json` context or `-c key=value`; domain-free defaults, refused in production. */
export const stackProps = (app: App): DeliveryLimitsStackProps => {
  const context = (key: string, fallback: string) => String(app.node.tryGetContext(key) ?? fallback);
  const stageName = context('stage', 'dev');
  // said explicitly: a stage's name decides nothing
  const production = context('production', 'false') === 'true';
  const anonymousQuota = app.node.tryGetContext('anonymousQuotaPerDay');
  const sized = loadSettings(context);
  const deliveryMaxConcurrency = Number(context('deliveryMaxConcurrency', '10'));
  const reserving = context('reservedConcurrency', 'false') === 'true';
  const recorderReservation = reserving ? Number(context('recorderReservedConcurrency', 'NaN')) : NaN;
  checkContradictions({
    ...sized,
    deliveryMaxConcurrency,
    ...(Number.isNaN(recorderReservation) ? {} : { recorderReservation }),
  });
  const reservedConcurrency = reservations(context, deliveryMaxConcurrency);
  checkAutoSharding(app);
  const props: DeliveryLimitsStackProps = {
    stageName,
    production,
    terminationProtection: production,
    logRetention: production ? logs.RetentionDays.SIX_MONTHS : logs.RetentionDays.ONE_MONTH,
    alarmEmail: app.node.tryGetContext('alarmEmail'),
    alarmTopicArn: app.node.tryGetContext('alarmTopicArn'),
    runbookUrl: context('runbookUrl', 'docs/operations.md'),
    mailFrom: context('mailFrom', 'no-reply@example.com'),
    sesIdentity: context('sesIdentity', 'example.com'),
    appBaseUrl: context('appBaseUrl', 'https://example.com'),
    corsOrigins: app.node.tryGetContext('corsOrigins')?.split(',').filter(Boolean),
    ...edgeProps(context),
    ...(anonymousQuota !== undefined ? { anonymousQuotaPerDay: Number(anonymousQuota) } : {}),
    ...sized,
    futureToleranceSeconds: Number(context('futureToleranceSeconds', String(DEFAULT_FUTURE_TOLERANCE_MS / 1000))),
    tracing: context('tracing', 'false') === 'true',
    sourceMaps: context('sourceMaps', 'false') === 'true',
    ...(reservedConcurrency ? { reservedConcurrency } : {}),
    deliveryMaxConcurrency,
  };
  if (production) checkProduction(props);
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
    if (!(error instanceof SettingError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
