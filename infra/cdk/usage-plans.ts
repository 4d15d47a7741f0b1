import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { partnerPlan } from '../../shared/domain/metering/partner-quota';
import type { DeliveryLimitsStackProps } from './stack-props';
import type { MeteringKeys } from './usage-keys';

export type UsagePlanSettings = Pick<
  DeliveryLimitsStackProps,
  'stageName' | 'defaultThrottle' | 'defaultQuotaPerDay' | 'anonymousThrottle' | 'anonymousQuotaPerDay'
>;

/** A keyed partner's plan, which the limit families also keep for partners signing in the form body. */
export const partnerLimits = (settings: Pick<UsagePlanSettings, 'defaultThrottle' | 'defaultQuotaPerDay'>) =>
  partnerPlan({ ...settings.defaultThrottle, quotaPerDay: settings.defaultQuotaPerDay });

/**
 * The default, partner and anonymous usage plans; the default and anonymous ones meter the stack's own keys. The
 * partner plan is returned: partners' keys are registered in it.
 */
export const addUsagePlans = (
  api: apigateway.RestApi,
  settings: UsagePlanSettings,
  { defaultKey, anonymousKey }: MeteringKeys,
): apigateway.UsagePlan => {
  const defaultPlan = api.addUsagePlan('DefaultPlan', {
    name: `delivery-limits-${settings.stageName}-default`,
    throttle: settings.defaultThrottle,
    quota: { limit: settings.defaultQuotaPerDay, period: apigateway.Period.DAY },
    apiStages: [{ api, stage: api.deploymentStage }],
  });
  defaultPlan.addApiKey(defaultKey);
  const partner = partnerLimits(settings);
  const partnerUsagePlan = api.addUsagePlan('PartnerPlan', {
    name: `delivery-limits-${settings.stageName}-partner`,
    throttle: { rateLimit: partner.rateLimit, burstLimit: partner.burstLimit },
    quota: { limit: partner.quotaPerDay, period: apigateway.Period.DAY },
    apiStages: [{ api, stage: api.deploymentStage }],
  });
  // strangers' form posts (hash in the body, unseen by the authorizer) have a plan and a quota of their own
  const anonymousPlan = api.addUsagePlan('AnonymousPlan', {
    name: `delivery-limits-${settings.stageName}-anonymous`,
    throttle: settings.anonymousThrottle,
    ...(settings.anonymousQuotaPerDay !== undefined
      ? { quota: { limit: settings.anonymousQuotaPerDay, period: apigateway.Period.DAY } }
      : {}),
    apiStages: [{ api, stage: api.deploymentStage }],
  });
  anonymousPlan.addApiKey(anonymousKey);
  return partnerUsagePlan;
};
