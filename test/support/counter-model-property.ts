import { deepStrictEqual } from 'node:assert/strict';
import fc from 'fast-check';
import type { LocalService } from '../../infra/local/local-service';
import type { Item } from '../../shared/adapters/dynamodb/table-store';
import { CounterModel } from '../model/counter-model';
import {
  generatedCase,
  type CaseSize,
  type GeneratedCase,
  type GeneratedReset,
  type GeneratedSharding,
} from '../model/generated-case';
import { clearWarmCaches } from '../../shared/support/warm-cache';
import { ENTITIES, MODEL_API_KEY, MODEL_CATALOG } from '../model/model-catalog';
import { apiClient, importCatalog, postJson } from './http';
import { FifoTransport } from './fifo-transport';
import {
  deleteCounterItems,
  markersInlineAndBeside,
  modelView,
  storedCounterItems,
  summedViews,
  type CounterView,
} from './stored-counters';

/** reset.do through the API, then the hourly flush run now, at `now`. */
const resetNow = async (service: LocalService, reset: GeneratedReset, now: number): Promise<void> => {
  const [type, id] = reset.entity.split('#');
  const path = `/rest-api/${type!.toLowerCase()}/${id}/limits/reset.do`;
  service.clock.set(new Date(now));
  const asked = await apiClient(service.url, MODEL_API_KEY).post(path, { limitCounters: reset.name });
  if (asked.status !== 200) throw new Error(`${path} ${reset.name}: ${asked.status} ${await asked.text()}`);
  const flushed = (await (await postJson(`${service.url}/_local/flush`, {})).json()) as { applied: number };
  deepStrictEqual(flushed.applied, 1, `the flush applied ${path} ${reset.name}`);
};

/** Shards the case's entities before delivery step `index` (see `GeneratedSharding`). */
const shardAt = async (service: LocalService, sharding: GeneratedSharding | undefined, index: number) => {
  if (sharding?.beforeStep !== index) return;
  for (const [entity, shards] of Object.entries(sharding.shards)) {
    const [type, id] = entity.split('#');
    const answer = await postJson(`${service.url}/_local/shards`, { type, id: Number(id), shards });
    if (answer.status !== 200) throw new Error(`/_local/shards ${entity}: ${answer.status} ${await answer.text()}`);
  }
};

/** The catalog, and a limit on every entity (a reset needs one). */
export const prepareService = async (service: LocalService): Promise<void> => {
  await importCatalog(service.url, MODEL_CATALOG);
  for (const entity of ENTITIES) {
    const [type, id] = entity.split('#');
    const path = `/rest-api/${type!.toLowerCase()}/${id}/limits/set.do`;
    const answer = await apiClient(service.url, MODEL_API_KEY).post(path, { totalImpressionsLimit: '4000000000' });
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
  }
};

/** By name; an item with no period and no no-conversion state holds no counters, as no item does. */
const sorted = (entries: Iterable<[string, CounterView]>) =>
  Object.fromEntries(
    [...entries]
      .filter(([, view]) => Object.keys(view.periods).length > 0 || view.noConversion)
      .sort(([a], [b]) => a.localeCompare(b)),
  );

/**
 * Runs one generated case through the real recorder on the service's table and compares every counter item
 * with the reference model; the counters are deleted afterwards, so cases do not see each other. The
 * no-conversion state is exact in orderly cases (see `GeneratedCase.orderly`), a bound otherwise (`modelView`).
 */
export const checkCase = async (service: LocalService, generated: GeneratedCase, caseId: string): Promise<void> => {
  const model = new CounterModel();
  const transport = new FifoTransport(service, caseId, generated);
  const { messages, reset } = generated;
  const split = reset?.afterMessage ?? messages.length;
  let stored: Map<string, Item> | undefined;
  try {
    for (const message of messages.slice(0, split)) model.apply(message);
    transport.send(0, split);
    await transport.run(generated.steps, (index) => shardAt(service, generated.sharding, index));
    if (reset) {
      const now = messages[split - 1]!.sentAt;
      await resetNow(service, reset, now);
      model.reset(reset.entity, reset.name, now);
      for (const message of messages.slice(split)) model.apply(message);
      transport.send(split, messages.length);
      await transport.run(generated.steps);
    }
    deepStrictEqual(transport.log.failedWithoutFaults, [], 'messages handed back without a fault injected');
    deepStrictEqual(transport.remaining(), 0, 'messages left on the queue');
    stored = await storedCounterItems(service);
    deepStrictEqual(markersInlineAndBeside(stored), [], 'groups with a marker on a counter item and beside it');
    const { views: actual, spread } = summedViews(stored);
    const expected = [...model.items].map(([name, item]): [string, CounterView] => {
      const view = modelView(item, generated.orderly, actual.get(name));
      // across shards the no-conversion state is a bound (`sumShardStates`): compared where one shard holds it
      return [name, spread.has(name) ? { periods: view.periods } : view];
    });
    deepStrictEqual(sorted(actual), sorted(expected), 'stored counters (actual) against the model (expected)');
  } finally {
    service.faults.set([]);
    service.clock.set(null);
    await deleteCounterItems(service, (stored ?? (await storedCounterItems(service))).values());
    // the next case starts unsharded: no container may remember this one's shard counts
    clearWarmCaches();
  }
};

/** The model-based property, for `npm test` and `npm run fuzz`. */
export const counterModelProperty = (service: LocalService, size: CaseSize) => {
  let cases = 0;
  return fc.asyncProperty(generatedCase(size), (generated) => checkCase(service, generated, `case${++cases}`));
};
