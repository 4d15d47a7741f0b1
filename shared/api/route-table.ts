/**
 * The one route table. CDK builds API Gateway resources from it, the local server routes with it, and
 * each family's Lambda dispatches with it. No route is written down anywhere else.
 */

import { levelsOfSide, type LevelDefinition, type LimitLevel, type Side } from '../domain/levels';

export type Family = 'auth' | 'demand-limits' | 'supply-limits' | 'per-action' | 'webhooks';
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export type { LimitLevel };

const FAMILY_OF_SIDE: Record<Side, Family> = { demand: 'demand-limits', supply: 'supply-limits' };

export type Operation =
  | 'auth.token'
  | 'auth.login'
  | 'auth.forgot'
  | 'auth.resetPassword'
  | 'limits.read'
  | 'limits.set'
  | 'limits.update'
  | 'limits.reset'
  | 'limits.resetByDelete'
  | 'limits.delete'
  | 'limits.status'
  | 'limits.history'
  | 'limits.bulkCampaigns'
  | 'limits.bulkBanners'
  | 'perAction.list'
  | 'perAction.add'
  | 'perAction.update'
  | 'perAction.delete'
  | 'perAction.enable'
  | 'perAction.disable'
  | 'webhooks.create'
  | 'webhooks.list'
  | 'webhooks.update'
  | 'webhooks.delete'
  | 'webhooks.rotateSecret'
  | 'webhooks.enable';

export interface Route {
  readonly operation: Operation;
  readonly method: HttpMethod;
  /** Path template as the spec writes it; `{name}` is a path parameter and may be followed by `.do`. */
  readonly path: string;
  readonly family: Family;
  /** Whether the request authorizer runs before the handler. */
  readonly authenticated: boolean;
  /** Limit level of a per-level route. */
  readonly level?: LimitLevel;
  readonly summary: string;
}

/** What every level has, under its entity's path: the operation, its method, the path's tail and its summary. */
const LEVEL_OPERATIONS: readonly [Operation, HttpMethod, string, (level: LimitLevel) => string][] = [
  ['limits.read', 'GET', 'limits.do', (level) => `Read the ${level} limit with its counters`],
  ['limits.set', 'POST', 'limits/set.do', (level) => `Create or merge the ${level} limit`],
  ['limits.update', 'POST', 'limits/update.do', (level) => `Merge into an existing ${level} limit`],
  ['limits.reset', 'POST', 'limits/reset.do', (level) => `Queue a reset of ${level} counters`],
  [
    'limits.resetByDelete',
    'DELETE',
    'limits/reset.do',
    (level) => `Queue a reset of ${level} counters (DELETE, as Epom's clients send it)`,
  ],
  ['limits.delete', 'DELETE', 'limits.do', (level) => `Delete the ${level} limit and its counters`],
  ['limits.status', 'GET', 'limits/status.do', (level) => `Whether the ${level} may deliver now, and why not`],
  ['limits.history', 'GET', 'limits/history.do', (level) => `Who changed the ${level}'s limits, when, and how`],
];

const limitRoutes = ({ level, idField, side }: LevelDefinition): Route[] =>
  LEVEL_OPERATIONS.map(([operation, method, tail, summary]) => ({
    family: FAMILY_OF_SIDE[side],
    authenticated: true,
    level,
    operation,
    method,
    path: `/rest-api/${level}/{${idField}}/${tail}`,
    summary: summary(level),
  }));

const perAction = { family: 'per-action', authenticated: true } as const;
const auth = { family: 'auth', authenticated: false } as const;
const webhooks = { family: 'webhooks', authenticated: true } as const;

export const ROUTES: readonly Route[] = [
  {
    ...auth,
    operation: 'auth.token',
    method: 'POST',
    path: '/rest-api/auth/token.do',
    summary: 'Exchange username and password for a one-time token',
  },
  {
    ...auth,
    operation: 'auth.login',
    method: 'GET',
    path: '/rest-api/auth/{authToken}/login.do',
    summary: 'Log in with a one-time token',
  },
  {
    ...auth,
    operation: 'auth.forgot',
    method: 'POST',
    path: '/rest-api/auth/forgot.do',
    summary: 'Request a password reset e-mail',
  },
  {
    ...auth,
    operation: 'auth.resetPassword',
    method: 'POST',
    path: '/rest-api/auth/reset-password.do',
    summary: 'Set a new password with a reset token',
  },
  ...levelsOfSide('demand').flatMap(limitRoutes),
  {
    family: 'demand-limits',
    authenticated: true,
    operation: 'limits.bulkCampaigns',
    method: 'GET',
    path: '/rest-api/campaign/limits.do',
    summary: 'Read the limits of many campaigns',
  },
  {
    family: 'demand-limits',
    authenticated: true,
    operation: 'limits.bulkBanners',
    method: 'GET',
    path: '/rest-api/banners/limits.do',
    summary: 'Read the limits of many banners',
  },
  ...levelsOfSide('supply').flatMap(limitRoutes),
  {
    ...perAction,
    operation: 'perAction.list',
    method: 'GET',
    path: '/rest-api/per-action/limits/{type}/{entityId}.do',
    summary: 'List the per-action limits of an entity',
  },
  {
    ...perAction,
    operation: 'perAction.add',
    method: 'POST',
    path: '/rest-api/per-action/add/limit/{type}/{entityId}.do',
    summary: 'Create or change the per-action limit of an action',
  },
  {
    ...perAction,
    operation: 'perAction.update',
    method: 'POST',
    path: '/rest-api/per-action/update/limit/{type}/{entityId}.do',
    summary: 'Change an existing per-action limit',
  },
  {
    ...perAction,
    operation: 'perAction.delete',
    method: 'POST',
    path: '/rest-api/per-action/delete.do',
    summary: 'Delete per-action limits by record id',
  },
  {
    ...perAction,
    operation: 'perAction.enable',
    method: 'POST',
    path: '/rest-api/per-action/limits/{type}/{entityId}/enable.do',
    summary: 'Switch per-action limits on',
  },
  {
    ...perAction,
    operation: 'perAction.disable',
    method: 'POST',
    path: '/rest-api/per-action/limits/{type}/{entityId}/disable.do',
    summary: 'Switch per-action limits off, deleting them',
  },
  {
    ...webhooks,
    operation: 'webhooks.create',
    method: 'POST',
    path: '/rest-api/webhooks/create.do',
    summary: 'Subscribe a URL to limit events; the signing secret is shown once',
  },
  {
    ...webhooks,
    operation: 'webhooks.list',
    method: 'GET',
    path: '/rest-api/webhooks.do',
    summary: "List the caller's webhook subscriptions",
  },
  {
    ...webhooks,
    operation: 'webhooks.update',
    method: 'POST',
    path: '/rest-api/webhooks/{webhookId}/update.do',
    summary: "Replace a subscription's URL, events and filters in place, keeping its id and secrets",
  },
  {
    ...webhooks,
    operation: 'webhooks.delete',
    method: 'DELETE',
    path: '/rest-api/webhooks/{webhookId}.do',
    summary: 'Delete a webhook subscription',
  },
  {
    ...webhooks,
    operation: 'webhooks.rotateSecret',
    method: 'POST',
    path: '/rest-api/webhooks/{webhookId}/rotate-secret.do',
    summary: 'Replace the signing secret; the old one signs for 24 hours more',
  },
  {
    ...webhooks,
    operation: 'webhooks.enable',
    method: 'POST',
    path: '/rest-api/webhooks/{webhookId}/enable.do',
    summary: 'Turn a disabled subscription back on, clearing its failure run',
  },
];

export const FAMILIES: readonly Family[] = ['auth', 'demand-limits', 'supply-limits', 'per-action', 'webhooks'];

/** A route that changes state: every one accepts `dryRun` (check everything, change nothing). */
export const isWriteRoute = (route: Route): boolean => route.authenticated && route.method !== 'GET';

export const routesOf = (family: Family): Route[] => ROUTES.filter((route) => route.family === family);

/** The methods a route answers: its own, and HEAD wherever it is a GET (the GET's answer without its body). */
export const methodsOf = (route: Route): (HttpMethod | 'HEAD')[] =>
  route.method === 'GET' ? ['GET', 'HEAD'] : [route.method];
