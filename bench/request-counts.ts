import { readFileSync } from 'node:fs';
import type { LocalService } from '../infra/local/local-service';
import { BENCH_OPERATIONS } from './operations';
import type { recordRequests } from './request-recorder';
import { writeCost } from './throughput';

export interface RequestCount {
  operation: string;
  requests: number;
  floor: number;
  budget: number;
  commands: Record<string, number>;
  /** Write requests and the items they write, as DynamoDB bills them. */
  writes: { requests: number; items: number };
}

const BUDGETS: Record<string, number> = JSON.parse(
  readFileSync(new URL('./budgets.json', import.meta.url), 'utf8'),
).dynamoDbRequests;

/** DynamoDB requests of one call of each operation, counted by an SDK middleware. */
export const countRequests = async (
  service: LocalService,
  recorder: ReturnType<typeof recordRequests>,
): Promise<RequestCount[]> => {
  const counts: RequestCount[] = [];
  for (const operation of BENCH_OPERATIONS) {
    const prepared = await operation.prepare?.(service);
    let status = 0;
    const sent = await recorder.during(async () => {
      const response = await operation.run(service, prepared, 0);
      status = response.status;
      await response.arrayBuffer();
    });
    if (status !== 200) throw new Error(`${operation.name} answered ${status}`);
    const commands: Record<string, number> = {};
    for (const command of sent) commands[command.commandName] = (commands[command.commandName] ?? 0) + 1;
    const budget = BUDGETS[operation.name];
    if (budget === undefined) throw new Error(`bench/budgets.json has no budget for "${operation.name}"`);
    counts.push({
      operation: operation.name,
      requests: sent.length,
      floor: operation.floor,
      budget,
      commands,
      writes: writeCost(sent),
    });
  }
  return counts;
};
