import { parsePositiveId } from '../domain/identifiers';
import { enforce } from './access-checks';
import { hasUpdateAccess, type Entity, type Grants } from '../domain/access';
import { grantsOf } from '../adapters/dynamodb/grants-store';
import { badRequest, forbidden, notFound } from '../http/api-error';
import { principalOf, type ApiRequest, type OperationHandler } from '../pipeline/family-handler';
import { optionalBoolean } from '../http/parameter-checks';
import { jsonResponse } from '../http/response';
import { levelPolicy, type LevelPolicy } from '../domain/limits/level-policy';
import { parseLimitDate } from '../domain/limits/limit-dates';
import { type EntityLimit } from '../adapters/dynamodb/limit-store';
import { loadEntityLimits } from '../adapters/dynamodb/bulk-limit-reads';
import { renderLimit } from '../domain/limits/limit-view';
import type { Ports } from '../runtime/dependencies';
import { loadChildren } from '../adapters/dynamodb/children-store';
import type { TableStore } from '../adapters/dynamodb/table-store';

/** The spec caps the campaign bulk read at 10,000 rows, with no paging and no total. */
export const MAX_BULK_ROWS = 10_000;
/** `notFound` and `accessForbidden` list this many ids, then say how many more. */
const LISTED_IDS = 50;

const describeIds = (ids: readonly number[]): string =>
  ids.length <= LISTED_IDS
    ? ids.join(', ')
    : `${ids.slice(0, LISTED_IDS).join(', ')} … and ${ids.length - LISTED_IDS} more`;

const idList = (request: ApiRequest, name: string): number[] => {
  const values = request.parameters.list(name);
  const bad = values.filter((value) => parsePositiveId(value) === undefined);
  if (bad.length > 0) throw badRequest({ [name]: `must be positive integers; not: ${bad.slice(0, 10).join(', ')}` });
  return [...new Set(values.map(Number))];
};

const optionalDate = (request: ApiRequest, name: string): number | undefined => {
  const text = request.parameters.get(name);
  if (text === undefined) return undefined;
  const parsed = parseLimitDate(text, 0);
  if (!parsed.ok) throw badRequest({ [name]: parsed.reason });
  return parsed.value;
};

/**
 * Every campaign the caller's shares reach: its campaign shares and the campaigns of its advertiser shares, the
 * latter with their entities straight from the parent index.
 */
const accessibleCampaigns = async (
  store: TableStore,
  grants: Grants,
): Promise<{ ids: number[]; entities: Map<number, Entity> }> => {
  const ids = new Set<number>();
  const entities = new Map<number, Entity>();
  const advertisers: string[] = [];
  for (const [pk] of grants.shares) {
    if (pk.startsWith('CAMPAIGN#')) ids.add(Number(pk.slice('CAMPAIGN#'.length)));
    if (pk.startsWith('ADVERTISER#')) advertisers.push(pk);
  }
  const children = await Promise.all(advertisers.map((parent) => loadChildren(store, parent)));
  for (const entity of children.flat()) {
    ids.add(Number(entity.id));
    entities.set(Number(entity.id), entity);
  }
  return { ids: [...ids].sort((a, b) => a - b), entities };
};

const render = (policy: LevelPolicy, grants: Grants, id: number, loaded: EntityLimit) =>
  renderLimit({
    idField: policy.idField,
    entityId: id,
    record: loaded.limit,
    counters: loaded.counters,
    policy: policy.viewPolicy(grants),
  });

/** GET /rest-api/campaign/limits.do */
export const bulkCampaignLimits =
  ({ store, clock }: Ports<'store' | 'clock'>): OperationHandler =>
  async (request) => {
    const policy = levelPolicy('campaign');
    const grants = await grantsOf({ store, clock }, principalOf(request).userId);
    enforce(policy.read(grants));
    const requested = request.parameters.has('campaignIds') ? idList(request, 'campaignIds') : undefined;
    const from = optionalDate(request, 'startDateFrom');
    const to = optionalDate(request, 'startDateTo');
    const activeOnly = optionalBoolean(request.parameters, 'activeCampaignOnly') ?? false;
    const accessible = requested ? undefined : await accessibleCampaigns(store, grants);
    const ids = (requested ?? accessible!.ids).slice(0, MAX_BULK_ROWS);
    const loaded = await loadEntityLimits(store, {
      type: 'CAMPAIGN',
      ids,
      now: clock.now(),
      known: accessible?.entities,
    });

    const notFoundIds: number[] = [];
    const forbiddenIds: number[] = [];
    const limits: Record<string, unknown>[] = [];
    const withNoLimits: number[] = [];
    for (const id of ids) {
      const { entity, limit } = loaded.get(id)!;
      if (!entity || entity.deleted) {
        if (requested) notFoundIds.push(id);
        continue;
      }
      if (!hasUpdateAccess(grants, entity)) {
        if (requested) forbiddenIds.push(id);
        continue;
      }
      if (activeOnly && !entity.active) continue;
      if (!limit) {
        withNoLimits.push(id);
        continue;
      }
      const filtered = from !== undefined || to !== undefined;
      const start = limit.startDate;
      if (filtered && (start === undefined || (from !== undefined && start < from) || (to !== undefined && start > to)))
        continue;
      limits.push(render(policy, grants, id, loaded.get(id)!));
    }
    if (requested && requested.length > 0 && notFoundIds.length + forbiddenIds.length === ids.length) {
      if (forbiddenIds.length > 0) throw forbidden(`No update access to campaigns ${describeIds(forbiddenIds)}`);
      throw notFound(`Campaigns not found: ${describeIds(notFoundIds)}`);
    }
    return jsonResponse(200, {
      success: true,
      ...(limits.length > 0 ? { limits } : {}),
      withNoLimits,
      ...(notFoundIds.length > 0 ? { notFound: describeIds(notFoundIds), notFoundIds } : {}),
      ...(forbiddenIds.length > 0
        ? { accessForbidden: describeIds(forbiddenIds), accessForbiddenIds: forbiddenIds }
        : {}),
    });
  };

/** GET /rest-api/banners/limits.do: all or nothing; banners without limits are skipped. */
export const bulkBannerLimits =
  ({ store, clock }: Ports<'store' | 'clock'>): OperationHandler =>
  async (request) => {
    const policy = levelPolicy('banner');
    const grants = await grantsOf({ store, clock }, principalOf(request).userId);
    enforce(policy.read(grants));
    const ids = idList(request, 'bannerIds');
    if (ids.length === 0) throw badRequest({ bannerIds: 'at least one banner id is required' });
    if (ids.length > MAX_BULK_ROWS) throw badRequest({ bannerIds: `at most ${MAX_BULK_ROWS} ids` });
    const loaded = await loadEntityLimits(store, { type: 'BANNER', ids, now: clock.now() });
    const unknown = ids.filter((id) => {
      const entity = loaded.get(id)!.entity;
      return !entity || entity.deleted;
    });
    if (unknown.length > 0) throw notFound(`Banners not found: ${describeIds(unknown)}`);
    const refused = ids.filter((id) => !hasUpdateAccess(grants, loaded.get(id)!.entity!));
    if (refused.length > 0) throw forbidden(`No update access to banners ${describeIds(refused)}`);
    const limited = ids.filter((id) => loaded.get(id)!.limit);
    return jsonResponse(
      200,
      limited.map((id) => render(policy, grants, id, loaded.get(id)!)),
    );
  };
