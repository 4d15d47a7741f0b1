import { permissionLevel } from '../domain/access';
import {
  HISTORY_PAGE_DEFAULT,
  HISTORY_PAGE_MAXIMUM,
  visibleEntry,
  type ChangeAuthor,
} from '../domain/history/limit-history';
import type { LevelPolicy } from '../domain/limits/level-policy';
import type { Grants } from '../domain/access';
import { loadHistory, sortKeyOfCursor } from '../adapters/dynamodb/history-store';
import type { TableStore } from '../adapters/dynamodb/table-store';
import { badRequest } from '../http/api-error';
import { principalOf, type ApiRequest } from '../pipeline/family-handler';
import { jsonResponse } from '../http/response';

/** Who made a change, as history names them: never a credential. */
export const changeAuthor = (request: ApiRequest): ChangeAuthor => {
  const { userId, username, method } = principalOf(request);
  return { userId, username, method };
};

const pageSize = (request: ApiRequest): number => {
  const text = request.parameters.get('limit');
  if (text === undefined) return HISTORY_PAGE_DEFAULT;
  const size = /^\d{1,4}$/.test(text) ? Number(text) : NaN;
  if (!(size >= 1 && size <= HISTORY_PAGE_MAXIMUM))
    throw badRequest({ limit: `must be an integer from 1 to ${HISTORY_PAGE_MAXIMUM}` });
  return size;
};

const cursor = (request: ApiRequest): string | undefined => {
  const text = request.parameters.get('before');
  if (text === undefined) return undefined;
  const sortKey = /^[A-Za-z0-9_-]{1,300}$/.test(text) ? sortKeyOfCursor(text) : undefined;
  if (sortKey === undefined) throw badRequest({ before: 'must be the `next` value of a previous page' });
  return sortKey;
};

/** history.do, after the entity and read checks: a page of the changes the caller may see, newest first. */
export const historyPage = async (
  store: TableStore,
  request: ApiRequest,
  { policy, id, grants }: { policy: LevelPolicy; id: number; grants: Grants },
) => {
  const limit = pageSize(request);
  const before = cursor(request);
  const visibility = {
    grid: policy.grid,
    cap: (cap: Parameters<LevelPolicy['capPermission']>[1]) => policy.capPermission(grants, cap) !== 'DISABLED',
    perAction: permissionLevel(grants, policy.perActionPermission) !== 'DISABLED',
  };
  const page = await loadHistory(store, { type: policy.entityType, id }, { limit, before }, (entry) =>
    visibleEntry(entry, visibility),
  );
  return jsonResponse(200, { success: true, changes: page.entries, ...(page.next ? { next: page.next } : {}) });
};
