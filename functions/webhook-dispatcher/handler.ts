import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { dispatchBatch, type DispatcherPorts } from '../../shared/webhooks/dispatch-batch';

/** Both queues' consumer: events off the bus are fanned out, deliveries attempted (partial batch responses). */
export const createHandler =
  (ports: DispatcherPorts) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> =>
    (await dispatchBatch(event.Records, ports)).response;
