import { readFileSync } from 'node:fs';
import type { LocalService } from '../infra/local/local-service';
import { BENCH_OPERATIONS, send } from './operations';
import { clearWarmCaches } from '../shared/support/warm-cache';
import { roundTrips, type recordRequests } from './request-recorder';
import { writeCost } from './throughput';

export interface RequestCount {
  operation: string;
  requests: number;
  floor: number;
  budget: number;
  commands: Record<string, number>;
  /** The same call made again at once by the same caller: what a warm container sends, and its serial depth. */
  warm: number;
  roundTrips: number;
  warmBudget?: number;
  /** Write requests and the items they write, as DynamoDB bills them. */
  writes: { requests: number; items: number };
}

const BUDGET_FILE = JSON.parse(readFileSync(new URL('./budgets.json', import.meta.url), 'utf8')) as {
  dynamoDbRequests: Record<string, number>;
  warmDynamoDbRequests: Record<string, number>;
};
const BUDGETS = BUDGET_FILE.dynamoDbRequests;
const WARM_BUDGETS = BUDGET_FILE.warmDynamoDbRequests;

/** DynamoDB requests of one call of each operation, counted by an SDK middleware. */
export const countRequests = async (
  service: LocalService,
  recorder: ReturnType<typeof recordRequests>,
): Promise<RequestCount[]> => {
  const counts: RequestCount[] = [];
  for (const operation of BENCH_OPERATIONS) {
    const call = async (iteration: number, cold: boolean) => {
      const prepared = await operation.prepare?.(service);
      // cold: as a new container would make the call, nothing remembered
      if (cold) clearWarmCaches();
      let status = 0;
      const sent = await recorder.during(async () => {
        const response = await send(service, operation.request(prepared, iteration));
        status = response.status;
        await response.arrayBuffer();
      });
      if (status !== 200) throw new Error(`${operation.name} answered ${status}`);
      return sent;
    };
    const sent = await call(0, true);
    // warm: the same call again at once, by the same caller
    const warm = await call(1, false);
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
      warm: warm.length,
      roundTrips: roundTrips(warm),
      ...(WARM_BUDGETS[operation.name] !== undefined ? { warmBudget: WARM_BUDGETS[operation.name] } : {}),
      writes: writeCost(sent),
    });
  }
  return counts;
};
