import { parsePositiveId } from '../identifiers';
import { LEVELS, levelOfType, type EntityType } from '../levels';
import { WEBHOOK_EVENT_KINDS, type WebhookEntityFilter, type WebhookEventKind } from './subscription';
import { checkWebhookUrl, type WebhookUrlPolicy } from './webhook-url';

/** The filter parameter of each level, named as the spec names lists of its ids: `advertiserIds` … `placementIds`. */
export const filterParameterOf = (type: EntityType): string => `${levelOfType(type).idField}s`;
export const FILTER_PARAMETERS: readonly string[] = LEVELS.map((level) => filterParameterOf(level.entityType));

/** Every parameter of create.do that carries a list, comma-separated or repeated. */
export const SUBSCRIPTION_LIST_PARAMETERS: readonly string[] = ['events', ...FILTER_PARAMETERS];

/** How many entities one subscription may name, all levels together: the subscription stays one small item. */
export const MAX_FILTER_ENTITIES = 100;

/** create.do's parameters as sent: the URL, and each list parameter's values. */
export interface SubscriptionInput {
  url: string | undefined;
  events: readonly string[];
  /** By filter parameter name (`campaignIds`); absent lists are empty. */
  filters: Readonly<Record<string, readonly string[]>>;
}

export interface SubscriptionRequest {
  url: string;
  events: WebhookEventKind[];
  entities: WebhookEntityFilter[];
}

export type SubscriptionParse =
  { ok: true; value: SubscriptionRequest } | { ok: false; errors: Record<string, string> };

const urlProblem = (url: string | undefined, policy: WebhookUrlPolicy) => {
  if (url === undefined || url === '') return { reason: 'is required' };
  const check = checkWebhookUrl(url, policy);
  return check.ok ? { value: check.value } : { reason: check.reason };
};

/** One or more known kinds, each once, in the order the kinds are listed. */
const parseEvents = (values: readonly string[]): WebhookEventKind[] | string => {
  const unknown = values.filter((value) => !(WEBHOOK_EVENT_KINDS as readonly string[]).includes(value));
  if (unknown.length > 0) return `unknown event kind ${unknown[0]}: use ${WEBHOOK_EVENT_KINDS.join(', ')}`;
  if (values.length === 0) return `is required: one or more of ${WEBHOOK_EVENT_KINDS.join(', ')}`;
  return WEBHOOK_EVENT_KINDS.filter((kind) => values.includes(kind));
};

/** Each level's ids, each once, in level order then as sent; a value that is not an id names its parameter. */
const parseFilters = (filters: SubscriptionInput['filters'], errors: Record<string, string>): WebhookEntityFilter[] => {
  const entities: WebhookEntityFilter[] = [];
  for (const { entityType } of LEVELS) {
    const name = filterParameterOf(entityType);
    const values = filters[name] ?? [];
    const bad = values.find((value) => parsePositiveId(value) === undefined);
    if (bad !== undefined) errors[name] = `${bad} is not an id: each must be a positive integer`;
    else for (const entityId of new Set(values.map(Number))) entities.push({ entityType, entityId });
  }
  if (entities.length > MAX_FILTER_ENTITIES)
    errors[FILTER_PARAMETERS.find((name) => (filters[name] ?? []).length > 0)!] =
      `at most ${MAX_FILTER_ENTITIES} entities in all, across ${FILTER_PARAMETERS.join(', ')}`;
  return entities;
};

/** create.do's parameters judged together: every offending parameter is named at once. */
export const parseSubscriptionRequest = (input: SubscriptionInput, policy: WebhookUrlPolicy): SubscriptionParse => {
  const errors: Record<string, string> = {};
  const url = urlProblem(input.url, policy);
  if (url.reason) errors.url = url.reason;
  const events = parseEvents(input.events);
  if (typeof events === 'string') errors.events = events;
  const entities = parseFilters(input.filters, errors);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { url: url.value!, events: events as WebhookEventKind[], entities } };
};
