import { createFamilyHandler } from '../../shared/pipeline/family-handler';
import type { Ports, ServiceConfig } from '../../shared/runtime/dependencies';
import { webhookOperations } from '../../shared/handlers/webhook-operations';

export const createHandler = (
  dependencies: Ports<'store' | 'clock' | 'webhooks'> &
    Partial<Ports<'cors'>> & { config?: Pick<ServiceConfig, 'loopbackWebhooks'> },
) => createFamilyHandler('webhooks', webhookOperations(dependencies), dependencies);
