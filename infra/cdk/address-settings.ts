import { z } from 'zod';
import { SettingError } from './setting-error';

/** The settings that name a mailbox, a domain, a topic or a page. */
export interface AddressSettings {
  mailFrom: string;
  sesIdentity: string;
  appBaseUrl: string;
  alarmEmail?: string;
  alarmTopicArn?: string;
}

/** The email check the catalog's users are held to. */
const isAddress = (value: string) => z.email().safeParse(value).success;
const DOMAIN = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i;
const SNS_TOPIC_ARN = /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[\w-]{1,256}$/;

const refuse = (setting: string, value: string, why: string) => new SettingError(`-c ${setting}=${value}: ${why}`);

/**
 * The reset mail's sender must lie within the SES identity the auth function may send as (IAM allows `ses:SendEmail` on
 * that identity alone, and SES refuses a sender it has not verified): a different domain would deploy a service whose
 * every reset mail fails.
 */
const checkSender = ({ mailFrom, sesIdentity }: AddressSettings): void => {
  if (!isAddress(mailFrom)) throw refuse('mailFrom', mailFrom, 'not an email address');
  if (!DOMAIN.test(sesIdentity) && !isAddress(sesIdentity))
    throw refuse('sesIdentity', sesIdentity, 'neither a domain nor an email address, as SES verifies them');
  const [from, identity] = [mailFrom, sesIdentity].map((value) => value.toLowerCase());
  const domain = from!.slice(from!.lastIndexOf('@') + 1);
  const within = identity!.includes('@') ? from === identity : domain === identity || domain.endsWith(`.${identity}`);
  if (!within)
    throw refuse(
      'mailFrom',
      mailFrom,
      `not within the SES identity ${sesIdentity}, the only one the auth function may send as`,
    );
};

/** Where alarms go and where reset mails link: shapes that would otherwise fail only at deploy, or in a mail. */
export const checkAddresses = (settings: AddressSettings): void => {
  checkSender(settings);
  const { appBaseUrl, alarmEmail, alarmTopicArn } = settings;
  const base = URL.canParse(appBaseUrl) ? new URL(appBaseUrl) : undefined;
  if (!base || !['https:', 'http:'].includes(base.protocol) || base.search || base.hash)
    throw refuse('appBaseUrl', appBaseUrl, 'not an absolute http(s) address without query or fragment');
  if (alarmEmail && !isAddress(alarmEmail)) throw refuse('alarmEmail', alarmEmail, 'not an email address');
  if (alarmTopicArn && !SNS_TOPIC_ARN.test(alarmTopicArn))
    throw refuse('alarmTopicArn', alarmTopicArn, 'not an SNS topic ARN (arn:aws:sns:<region>:<account>:<name>)');
};

/** Names reserved for examples and tests (RFC 2606, RFC 6761): no mail reaches them and no page is served there. */
const EXAMPLE_DOMAINS = ['example.com', 'example.net', 'example.org'];
const EXAMPLE_TOP_LEVEL_DOMAINS = ['test', 'example', 'invalid', 'localhost'];

/** The host an address, a URL or a domain names, in lower case. */
const hostOf = (value: string): string => {
  const host = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) && URL.canParse(value) ? new URL(value).hostname : value;
  return host
    .slice(host.lastIndexOf('@') + 1)
    .toLowerCase()
    .replace(/\.$/, '');
};

/** Whether a mailbox, a URL or a domain is a placeholder: its host is a name reserved for examples. */
export const isPlaceholder = (value: string): boolean => {
  const host = hostOf(value);
  return (
    EXAMPLE_TOP_LEVEL_DOMAINS.includes(host.slice(host.lastIndexOf('.') + 1)) ||
    EXAMPLE_DOMAINS.some((domain) => host === domain || host.endsWith(`.${domain}`))
  );
};
