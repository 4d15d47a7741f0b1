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
