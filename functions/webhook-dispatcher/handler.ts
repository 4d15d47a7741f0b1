import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { systemClock } from '../../shared/ports/clock';
import { storeFromEnvironment, webhooksFromEnvironment } from '../../shared/runtime/dependencies';
import { webhookDispatcherPortsFromEnvironment } from '../../shared/runtime/webhook-dispatcher-ports';
import { dispatchBatch, type DispatcherPorts } from '../../shared/webhooks/dispatch-batch';

/** Both queues' consumer: events off the bus are fanned out, deliveries attempted (partial batch responses). */
export const createHandler =
  (ports: DispatcherPorts) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> =>
    (await dispatchBatch(event.Records, ports)).response;

const store = storeFromEnvironment();
export const handler = createHandler({
  store,
  clock: systemClock,
  subscriptions: webhooksFromEnvironment(store),
  ...webhookDispatcherPortsFromEnvironment(),
});
