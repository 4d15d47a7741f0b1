import { deepStrictEqual } from 'node:assert/strict';
import fc from 'fast-check';
import type { LocalService } from '../../infra/local/local-service';
import type { Item } from '../../shared/adapters/dynamodb/table-store';
import { CounterModel } from '../model/counter-model';
import { generatedCase, type CaseSize, type GeneratedCase } from '../model/generated-case';
import { FifoTransport } from './fifo-transport';
import { deleteCounterItems, modelView, storedCounterItems, storedView, type CounterView } from './stored-counters';

const sorted = (entries: Iterable<[string, CounterView]>) =>
  Object.fromEntries([...entries].sort(([a], [b]) => a.localeCompare(b)));

/**
 * Runs one generated case through the real recorder on the service's table and compares every counter item
 * with the reference model; the counters are deleted afterwards, so cases do not see each other. The
 * no-conversion state is compared in orderly cases (see `GeneratedCase.orderly`).
 */
export const checkCase = async (service: LocalService, generated: GeneratedCase, caseId: string): Promise<void> => {
  const model = new CounterModel();
  for (const message of generated.messages) model.apply(message);
  const transport = new FifoTransport(service, generated, caseId);
  let stored: Map<string, Item> | undefined;
  try {
    await transport.run(generated.steps);
    deepStrictEqual(transport.log.failedWithoutFaults, [], 'messages handed back without a fault injected');
    deepStrictEqual(transport.remaining(), 0, 'messages left on the queue');
    stored = await storedCounterItems(service);
    const actual = new Map([...stored].map(([name, item]) => [name, storedView(item, generated.orderly)]));
    deepStrictEqual(
      sorted(actual),
      sorted([...model.items].map(([name, item]) => [name, modelView(item, generated.orderly, actual.get(name))])),
      'stored counters (actual) against the model (expected)',
    );
  } finally {
    service.faults.set([]);
    service.clock.set(null);
    await deleteCounterItems(service, (stored ?? (await storedCounterItems(service))).values());
  }
};

/** The model-based property, for `npm test` and `npm run fuzz`. */
export const counterModelProperty = (service: LocalService, size: CaseSize) => {
  let cases = 0;
  return fc.asyncProperty(generatedCase(size), (generated) => checkCase(service, generated, `case${++cases}`));
};
