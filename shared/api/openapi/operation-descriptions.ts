import { MAX_SUBSCRIPTIONS_PER_USER } from '../../domain/webhooks/subscription-cap';
import { MAX_FILTER_ENTITIES } from '../../domain/webhooks/subscription-request';
import { MAX_SIGNING_SECRETS } from '../../domain/webhooks/webhook-secrets';
import type { Operation } from '../route-table';

/** What each operation does and which rules hold, in the service's words: the reference's text per operation. */
export const OPERATION_DESCRIPTIONS: Record<Operation, string> = {
  'auth.token':
    'Exchanges a user name and password for a one-time authToken (valid 60 seconds). A wrong password, an unknown user and an inactive user get the same 401.',
  'auth.login':
    'Consumes the authToken and opens an 8-hour session in the dl_session cookie. json=true answers JSON; callback answers JSONP (failures too, with 200); neither redirects (302).',
  'auth.forgot':
    'Mails a one-hour password-reset link to an active user with this address (at most one mail every 10 minutes; only the newest link works). The answer is the same whether or not the address is known.',
  'auth.resetPassword':
    'Sets a new password (10 characters or more) with the token from the reset link, and ends every older session.',
  'limits.read':
    "The entity's caps beside their counters. Caps not set, and caps the caller's permissions hide, are left out; 0 means uncapped. Needs a share on the entity (or an ancestor) and the level's general permission (READONLY suffices).",
  'limits.set':
    'Creates the limits or merges into them: only the fields sent change, a cap left out keeps its value, 0 uncaps. A shorter period may not exceed a non-zero longer one (judged on what will be stored). Caps the caller may not change are ignored (demand) or refused with 403 (supply); caps this level does not have are ignored and listed in ignoredFields. dryRun=true checks everything and writes nothing.',
  'limits.update': 'As set.do, on existing limits only: an entity without limits is a 404 with code LIMITS_NOT_SET.',
  'limits.reset':
    'Queues setting the named counters to 0; the hourly flush applies it, and records it in the change history then. Needs the permission of every cap a name covers (ALL and ALL_LIMITS: every cap set).',
  'limits.resetByDelete': 'The same as POST reset.do, for clients that reset with DELETE.',
  'limits.delete':
    'Removes the limits and clears their counters. Deleting limits that do not exist answers 200 as well.',
  'limits.status':
    'Whether the entity may deliver now and why not (its own caps, dates, the no-conversion rule, per-action caps, and every ancestor), with pacing and forecast per visible cap. What the caller may not see appears only as {entity, hidden: true}.',
  'limits.history':
    "Who changed the entity's limits, when and how, newest first, in pages of `limit` (cursor `before`). Fields of caps the caller may not see are left out, and so are changes that touched nothing else. Entries are kept 400 days.",
  'limits.bulkCampaigns':
    "Limits of many campaigns in one call: the ids asked (or every campaign the caller's shares reach), optionally filtered by start date and active campaigns; ids not found or not readable are listed apart.",
  'limits.bulkBanners': 'Limits of many banners in one call; ids not found or not readable are listed apart.',
  'perAction.list': "The entity's per-action limits with today's and the total conversions, and the per-action switch.",
  'perAction.add':
    'Creates or merges the per-action limit of one action (one per entity and action) and switches per-action limits on (demand types). dryRun=true checks everything and writes nothing.',
  'perAction.update':
    'Changes an existing per-action limit; none for the action is a 404 with code LIMITS_NOT_SET. The switch is untouched.',
  'perAction.delete':
    'Deletes per-action limits of one entity, all or none: an id that is not a limit of the entity is a 404 and nothing is deleted. At most 99 ids.',
  'perAction.enable':
    'Switches per-action limits on for an advertiser, campaign or banner (never a site or placement). Needs Manage Capping & Limitations and UPDATE on the owning advertiser.',
  'perAction.disable':
    'Switches per-action limits off and deletes every per-action limit of the advertiser, campaign or banner. Needs Manage Capping & Limitations and UPDATE on the owning advertiser.',
  'webhooks.create': `Subscribes an https URL to limit.reached and/or limit.changed events, for every entity the caller may read or only the ones named by advertiserIds … placementIds (each checked as a read of its limits is: unknown 404, no share or permission 403). The answer holds the signing secret, the only time it is shown. At most ${MAX_SUBSCRIPTIONS_PER_USER} subscriptions per user and ${MAX_FILTER_ENTITIES} filter entities per subscription. dryRun=true checks everything and creates nothing.`,
  'webhooks.list':
    "The caller's own subscriptions, newest first: URL, events, filters, status, why it was disabled and the current run of failed deliveries. Never a secret.",
  'webhooks.update':
    "Replaces a subscription's url, events and filters in place (the parameters and their checks are create.do's; a filter left out means none), keeping its id, secrets, status and failure run. Events are delivered to the new URL from the moment the answer is given, with no gap and no new secret. Another user's id answers 404, as an unknown one does. dryRun=true checks everything and changes nothing.",
  'webhooks.delete':
    "Deletes one of the caller's subscriptions; nothing more is delivered to it. Another user's id answers 404, as an unknown one does.",
  'webhooks.rotateSecret': `Makes a new signing secret, shown in this answer only. The previous one keeps signing for 24 hours (deliveries carry a signature by each, as Standard Webhooks receivers expect), at most ${MAX_SIGNING_SECRETS} in all.`,
  'webhooks.enable':
    'Turns a subscription switched off after a run of failed deliveries back on, and clears the run: it hears events from this moment (`activeSince`). Enabling an active subscription changes nothing, its failure run included.',
};
