import type { StackProps } from 'aws-cdk-lib';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type { FunctionName } from './bundling';
import type { LoadSettings } from './load-settings';

export interface DeliveryLimitsStackProps extends StackProps, LoadSettings {
  /** API Gateway stage, and the suffix of resource names. */
  stageName: string;
  /** Production keeps the table (deletion protection), the log groups and the event archive when the stack goes. */
  production: boolean;
  logRetention: logs.RetentionDays;
  /** Alarms notify this address, and/or this existing SNS topic; production needs one of them. */
  alarmEmail?: string;
  alarmTopicArn?: string;
  /** Where the operations runbook is read; every alarm's description links its section. */
  runbookUrl: string;
  /** Sender of password-reset mail, and the SES identity (address or domain) allowed to send it. */
  mailFrom: string;
  sesIdentity: string;
  /** Base URL of the UI that reset links point to. */
  appBaseUrl: string;
  /** Browser origins allowed by CORS; none, no CORS. */
  corsOrigins?: string[];
  /** Throttle and quota of the default usage plan (hash and session callers, and keys without a plan of their own). */
  defaultThrottle: { rateLimit: number; burstLimit: number };
  defaultQuotaPerDay: number;
  /**
   * Throttle (and optional daily quota) of the anonymous plan: form requests that show the authorizer no
   * credential, strangers' and form-body partners' alike.
   */
  anonymousThrottle: { rateLimit: number; burstLimit: number };
  anonymousQuotaPerDay?: number;
  /** How far after its message's receipt an event's `at` may lie before it counts at the receipt (clock skew). */
  futureToleranceSeconds: number;
  /** AWS WAF: credential-less requests one source address may send in five minutes. */
  credentialLessPerIpLimit: number;
  /** AWS WAF: requests of any kind one source address may send in five minutes (above the credential-less limit). */
  requestsPerIpLimit: number;
  tracing: boolean;
  /**
   * Whether this stage sets the account's API Gateway CloudWatch Logs role (`AWS::ApiGateway::Account`, one per
   * account and region), which execution logging needs; `false` leaves the account's own setting as it is.
   */
  apiGatewayAccountRole: boolean;
  /** Source maps in the bundles and `--enable-source-maps`: readable stack traces, for a slower cold start. */
  sourceMaps: boolean;
  /**
   * Limits on blast radius: reserved concurrency per function (none when absent), and how many recorder
   * invocations the delivery queue may start at once.
   */
  reservedConcurrency?: Partial<Record<FunctionName, number>>;
  deliveryMaxConcurrency: number;
}
