/**
 * What a field means wherever it appears, for fields whose schema does not say it itself: one entry per name, so
 * that `entityId` or `limitsSet` reads the same in every operation of the reference.
 */
export const FIELD_GLOSSARY: Record<string, string> = {
  success: 'true when the call did what it was asked; errors answer false with the error envelope',
  message: 'for people; may change (programs read `code`)',
  authToken: 'one-time login token: open a session with GET /rest-api/auth/{authToken}/login.do within 60 seconds',
  role: "the user's role (NETWORK, ADVERTISER, PUBLISHER …)",
  username: 'the user name',
  password: 'the password (sent only over HTTPS; never logged)',
  redirectUrl: 'where the UI goes after logging in',
  error: 'why the call failed, for people',
  email: "the account's e-mail address; the answer is the same whether or not it belongs to a user",
  token: 'the token from the reset link',
  deliverable: 'whether the entity may deliver now: no cap reached, inside its dates, no ancestor stopped',
  reasons: 'why it may not deliver, one entry per cause (empty when deliverable)',
  entity: 'the entity a reason or entry is about, as TYPE#id',
  cap: 'the cap value (0 never appears: 0 means uncapped)',
  counter: 'what has been counted in the period (exact; budgets to the thousandth)',
  field: 'the cap parameter, such as dailyImpressionsLimit',
  periodStart: 'the start of the period paced (ISO 8601, UTC), after clipping to the start date',
  periodEnd: 'the end of the period paced (ISO 8601, UTC), after clipping to the end date',
  ratePerHour: 'the delivery rate used for the forecast, per hour',
  projectedAtPeriodEnd: 'counter + rate × the time left in the period',
  countersAsOf: 'when the counters were read (ISO 8601, UTC); they are fresh within seconds',
  operation: 'what the change was',
  userId: "the user's id",
  method: 'how the user authenticated: apiKey, hash or session',
  from: 'the value before the change (null: not set)',
  to: 'the value after the change (null: not set)',
  limits: 'one entry per entity found with limits, in the order asked',
  withNoLimits: 'ids found and readable that have no limits',
  notFound: 'whether some ids name no entity',
  notFoundIds: 'the ids that name no entity',
  accessForbidden: 'whether some ids name entities the caller may not read',
  accessForbiddenIds: 'the ids of entities the caller may not read',
  actionLimits: 'the per-action limits of the entity, one per action',
  actionLimitsEnabled: 'whether per-action limits cap delivery (the per-action switch; demand types only)',
  id: 'the record id',
  entityId: 'the id of the advertiser, campaign, banner, site or placement',
  actionId: 'the action (goal) the conversions count for',
  dailyConversionsLimit: 'conversions of the action per UTC day; 0 uncapped; at most the total when that is set',
  totalConversionsLimit: 'conversions of the action in total; 0 uncapped',
  dailyConversions: "today's conversions of the action",
  totalConversions: 'all conversions of the action',
  deletedIds: 'the per-action limit ids deleted',
  advertiserId: 'the advertiser id',
  campaignId: 'the campaign id',
  bannerId: 'the banner id',
  siteId: 'the site id',
  placementId: 'the placement id',
  limitsSet: 'whether the entity has limits',
  startDate: 'delivery starts then (yyyy-MM-dd-HH-mm); absent when not set',
  endDate: 'delivery ends then (yyyy-MM-dd-HH-mm); absent when not set',
  evenPacing: 'spread each daily cap evenly over the UTC day: at most cap × the elapsed share of the day',
  useLocalTime: 'the dates are read and shown in timezoneOffset rather than UTC',
  ignoredFields:
    'caps the write sent that this level does not have, or that the caller may not change; nothing of them was ' +
    'stored. A name longer than 64 characters is given as its first 64 and `…`',
  ignoredFieldReasons: 'why each ignored field was ignored',
  type: 'ADVERTISER, CAMPAIGN, BANNER, SITE or PLACEMENT (exact upper case)',
  ids: 'per-action limit ids',
};

/** A path parameter's meaning: `{campaignId}`, `{type}`, `{entityId}`, `{authToken}`. */
export const pathParameterDescription = (name: string): string =>
  name === 'authToken' ? 'the authToken token.do answered' : (FIELD_GLOSSARY[name] ?? name);

type Node = Record<string, unknown>;

/** Gives every schema property without a description its glossary entry, anywhere in a document. */
export const describeFields = (value: unknown): void => {
  if (!value || typeof value !== 'object') return;
  if (Array.isArray(value)) return value.forEach(describeFields);
  const node = value as Node;
  const properties = node.properties as Record<string, Node> | undefined;
  if (properties && typeof properties === 'object')
    for (const [name, property] of Object.entries(properties))
      if (property && typeof property === 'object' && property.description === undefined && !property.$ref)
        if (FIELD_GLOSSARY[name]) property.description = FIELD_GLOSSARY[name];
  for (const [key, child] of Object.entries(node)) if (key !== 'examples' && key !== 'example') describeFields(child);
};
