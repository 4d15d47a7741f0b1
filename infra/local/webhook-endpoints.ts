import type { APIGatewayProxyResult } from 'aws-lambda';
import { jsonResponse } from '../../shared/http/response';
import type { LocalWebhooks } from './local-webhooks';

/**
 * `GET /_local/webhook-deliveries`: every delivery with its attempts, after attempting what is due by the local
 * clock (the table stream read first); `POST /_local/webhook-replay`: the dead-lettered deliveries sent again.
 */
export const webhookEndpoints = (
  webhooks: LocalWebhooks,
  tableStream: { drain(): Promise<void> },
): Record<string, (body: string) => Promise<APIGatewayProxyResult>> => ({
  'GET /_local/webhook-deliveries': async () => {
    await tableStream.drain();
    await webhooks.runDue();
    return jsonResponse(200, webhooks.list());
  },
  'POST /_local/webhook-replay': async () => {
    const replayed = webhooks.replay();
    await webhooks.runDue();
    return jsonResponse(200, { replayed });
  },
});
