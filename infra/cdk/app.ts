import { App, Aspects, Validations } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { FunctionName } from './bundling';
import { DeliveryLimitsDataStack } from './data-stack';
import { DeliveryLimitsStack } from './delivery-limits-stack';
import type { DeliveryLimitsStackProps } from './stack-props';
import {
  booleanSetting,
  optionalPositiveSetting,
  originsSetting,
  positiveSetting,
  recordingReader,
  refuseUnreadSettings,
  stageSetting,
  wholeNumberSetting,
  type Context,
  type ContextLookup,
  type NumberBounds,
} from './context-settings';
import { checkAddresses, isPlaceholder } from './address-settings';
import type { Load } from './capacity';
import { checkContradictions, loadSettings } from './load-settings';
import { dispatcherConcurrency, streamConsumerSizing } from './push-path';
import { UNRESERVED_MINIMUM } from './quota-checklist';
import { SettingError } from './setting-error';
import { WAF_WINDOW_SECONDS } from './web-acl';
import { WildcardGrants } from './wildcard-grants';
import { DEFAULT_PLAN, partnerPlan } from '../../shared/domain/metering/partner-quota';
import { DEFAULT_FUTURE_TOLERANCE_MS } from '../../shared/domain/delivery/contributions';
import { parseAutoSharding } from '../../shared/domain/delivery/counter-shards';

/**
 * Reserved concurrency, when asked for (`-c reservedConcurrency=true`): the authorizer and the API families keep
 * room of their own and token.do's scrypt cannot starve them. The recorder's is sized from
 * `deliveryMaxConcurrency` (`-c recorderReservedConcurrency` overrides it, never below), the stream consumer's and
 * the dispatcher's from the load (`infra/cdk/push-path.ts`); these are the others'.
 */
export const DEFAULT_RESERVED_CONCURRENCY: Record<
  Exclude<FunctionName, 'delivery-recorder' | 'history-events' | 'webhook-dispatcher'>,
  number
> = {
  authorizer: 200,
  auth: 20,
  'demand-limits': 150,
  'supply-limits': 80,
  'per-action': 80,
  // partners manage subscriptions seldom
  webhooks: 10,
  'reset-flush': 10,
};

/** What every function reserves at a load, its recorders `recorders`. */
export const reservationsAt = (load: Load, recorders: number): Record<FunctionName, number> => ({
  ...DEFAULT_RESERVED_CONCURRENCY,
  'delivery-recorder': recorders,
  'history-events': streamConsumerSizing(load).reservation,
  // every container its three triggers may run: a slow endpoint holds only the slow lane's
  'webhook-dispatcher': dispatcherConcurrency(load),
});

export { SettingError };

/** AWS WAF's bounds for a rate-based rule's limit. */
const WAF_RATE_LIMIT: NumberBounds = { least: 10, most: 2_000_000_000, why: "AWS WAF's bounds for a rate limit" };

/** What Lambda takes as an SQS event source's maximum concurrency. */
const RECORDERS_AT_ONCE: NumberBounds = { least: 2, most: 1000, why: "an SQS event source's maximum concurrency" };

const missing = (setting: string, why: string) => new SettingError(`production=true needs -c ${setting}: ${why}`);

/** The reservations at the load, the recorder's `recorders`, within the account's quota (`accountConcurrencyLimit`). */
const reservations = (context: Context, load: Load, recorders: number): Partial<Record<FunctionName, number>> => {
  const sized = reservationsAt(load, recorders);
  const reserved = Object.values(sized).reduce((sum, count) => sum + count, 0);
  const limit = optionalPositiveSetting(context, 'accountConcurrencyLimit');
  if (limit === undefined)
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
  Object.values(props.reservedConcurrency ?? reservationsAt(props.load, props.deliveryMaxConcurrency)).reduce(
    (sum, count) => sum + count,
    0,
  );

/** Automatic sharding (`autoShardWritesPerSecond`, `autoShardCount`): both or neither, checked before any deploy. */
const checkAutoSharding = (lookup: ContextLookup): void => {
  const setting = (key: string) => [key, lookup(key)?.toString()] as const;
  try {
    parseAutoSharding(setting('autoShardWritesPerSecond'), setting('autoShardCount'));
  } catch (error) {
    throw new SettingError((error as Error).message);
  }
};

/** The edge: usage plans sized for form-body partners, and AWS WAF's per-address limits (docs/quotas.md). */
const edgeProps = (context: Context) => {
  const rateLimit = positiveSetting(context, 'rateLimit', DEFAULT_PLAN.rateLimit);
  const burstLimit = positiveSetting(context, 'burstLimit', DEFAULT_PLAN.burstLimit);
  const defaultQuotaPerDay = positiveSetting(context, 'quotaPerDay', DEFAULT_PLAN.quotaPerDay);
  const partner = partnerPlan({ rateLimit, burstLimit, quotaPerDay: defaultQuotaPerDay });
  const formBodyPartners = positiveSetting(context, 'formBodyPartners', 10);
  const wafLimit = (key: string, fallback: number) => wholeNumberSetting(context, key, fallback, WAF_RATE_LIMIT);
  const credentialLessPerIpLimit = wafLimit('wafRateLimitPerIp', partner.rateLimit * WAF_WINDOW_SECONDS);
  const requestsPerIpLimit = wafLimit('wafRequestsPerIp', 2 * credentialLessPerIpLimit);
  if (requestsPerIpLimit < credentialLessPerIpLimit)
    throw new SettingError(
      `wafRequestsPerIp=${requestsPerIpLimit} contradicts wafRateLimitPerIp=${credentialLessPerIpLimit}: every request from an address may not be held below its credential-less ones`,
    );
  return {
    defaultThrottle: { rateLimit, burstLimit },
    defaultQuotaPerDay,
    // the anonymous plan carries every form-body partner at a keyed partner's numbers; strangers are held per address
    anonymousThrottle: {
      rateLimit: positiveSetting(context, 'anonymousRateLimit', partner.rateLimit * formBodyPartners),
      burstLimit: positiveSetting(context, 'anonymousBurstLimit', partner.burstLimit * formBodyPartners),
    },
    credentialLessPerIpLimit,
    requestsPerIpLimit,
  };
};

/** What production cannot do without: an alarm destination, real addresses, a runbook operators can open. */
const checkProduction = (props: DeliveryLimitsStackProps): void => {
  if (!props.alarmEmail && !props.alarmTopicArn)
    throw missing('alarmEmail=… or -c alarmTopicArn=…', 'alarms must reach someone');
  // the operations guide's sample values included: they show the shape of a setting, never a real address
  for (const [setting, value] of [
    ['mailFrom', props.mailFrom],
    ['sesIdentity', props.sesIdentity],
    ['appBaseUrl', props.appBaseUrl],
    ['alarmEmail', props.alarmEmail],
    ['runbookUrl', props.runbookUrl],
    ...(props.corsOrigins ?? []).map((origin) => ['corsOrigins', origin] as const),
  ] as const)
    if (value && isPlaceholder(value))
      throw missing(`${setting}=…`, `"${value}" is a placeholder, a name reserved for examples`);
  if (!props.appBaseUrl.startsWith('https://'))
    throw missing('appBaseUrl=https://…', `reset mails link it, and "${props.appBaseUrl}" is not https`);
  if (!/^https:\/\/[^/]+\//.test(props.runbookUrl))
    throw missing(
      'runbookUrl=https://…',
      `alarms link the runbook, and "${props.runbookUrl}" is not an absolute address`,
    );
};

/** Settings from `cdk.json` context or `-c key=value`; domain-free defaults, refused in production. */
export const stackProps = (app: App): DeliveryLimitsStackProps => {
  const { context, lookup, read } = recordingReader((key) => app.node.tryGetContext(key));
  // said explicitly: a stage's name decides nothing
  const production = booleanSetting(context, 'production');
  const stageName = stageSetting(context, production);
  const anonymousQuota = optionalPositiveSetting(context, 'anonymousQuotaPerDay');
  const sized = loadSettings(context, production);
  const deliveryMaxConcurrency = wholeNumberSetting(context, 'deliveryMaxConcurrency', 10, RECORDERS_AT_ONCE);
  const reserving = booleanSetting(context, 'reservedConcurrency');
  const recorderReservation = reserving ? optionalPositiveSetting(context, 'recorderReservedConcurrency') : undefined;
  checkContradictions({
    ...sized,
    deliveryMaxConcurrency,
    ...(recorderReservation === undefined ? {} : { recorderReservation }),
  });
  const reservedConcurrency = reserving
    ? reservations(context, sized.load, recorderReservation ?? deliveryMaxConcurrency)
    : undefined;
  checkAutoSharding(lookup);
  const props: DeliveryLimitsStackProps = {
    stageName,
    production,
    terminationProtection: production,
    logRetention: production ? logs.RetentionDays.SIX_MONTHS : logs.RetentionDays.ONE_MONTH,
    alarmEmail: lookup('alarmEmail') as string | undefined,
    alarmTopicArn: lookup('alarmTopicArn') as string | undefined,
    runbookUrl: context('runbookUrl', 'docs/operations.md'),
    mailFrom: context('mailFrom', 'no-reply@example.com'),
    sesIdentity: context('sesIdentity', 'example.com'),
    appBaseUrl: context('appBaseUrl', 'https://example.com'),
    corsOrigins: originsSetting(context, 'corsOrigins'),
    ...edgeProps(context),
    ...(anonymousQuota !== undefined ? { anonymousQuotaPerDay: anonymousQuota } : {}),
    ...sized,
    futureToleranceSeconds: wholeNumberSetting(context, 'futureToleranceSeconds', DEFAULT_FUTURE_TOLERANCE_MS / 1000, {
      least: 0,
    }),
    tracing: booleanSetting(context, 'tracing'),
    apiGatewayAccountRole: booleanSetting(context, 'apiGatewayAccountRole', true),
    sourceMaps: booleanSetting(context, 'sourceMaps'),
    ...(reservedConcurrency ? { reservedConcurrency } : {}),
    deliveryMaxConcurrency,
  };
  checkAddresses(props);
  if (production) checkProduction(props);
  refuseUnreadSettings(app.node.getAllContext(), read);
  return props;
};

/** A stage's two stacks: the data (`-data`, deployed first) and the service that runs on it. */
export const stackNames = (stageName: string) => ({
  data: `DeliveryLimits-${stageName}-data`,
  service: `DeliveryLimits-${stageName}`,
});

export const buildApp = (app = new App()): App => {
  const props = stackProps(app);
  const names = stackNames(props.stageName);
  const data = new DeliveryLimitsDataStack(app, names.data, props);
  new DeliveryLimitsStack(app, names.service, { ...props, data });
  Aspects.of(app).add(new WildcardGrants());
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
