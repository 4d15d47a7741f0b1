import type { Route } from './route-table';

/**
 * A route's stable name: its operation and level in camel case (`limitsDeleteCampaign`), the OpenAPI document's
 * `operationId` and the `operation` dimension of its failure metric, so that an alarm names what a partner calls.
 */
export const routeName = (route: Pick<Route, 'operation' | 'level'>): string =>
  [...route.operation.split('.'), ...(route.level ? [route.level] : [])]
    .map((part, index) => (index === 0 ? part : part[0]!.toUpperCase() + part.slice(1)))
    .join('');
