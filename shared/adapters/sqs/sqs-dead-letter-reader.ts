import type { Message } from '@aws-sdk/client-sqs';
import { z } from 'zod';
import type { DeadLetterDetails } from '../../ports/dead-letters';

const detailsSchema = z.object({
  messageId: z.string().min(1),
  group: z.string(),
  sequence: z.string(),
  sentAt: z.number().int().nonnegative(),
  targets: z.array(z.string().min(1)).min(1),
  requests: z.array(z.unknown()),
});

/**
 * A message of the delivery DLQ as `SqsDeadLetters` sent it: its body and its `details` attribute. Nothing for one
 * without details (a malformed message, or one past the redelivery horizon): no replay can count it safely.
 */
export const deadLetterOfSqsMessage = (message: Message): { body: string; details: DeadLetterDetails } | undefined => {
  const text = message.MessageAttributes?.details?.StringValue;
  if (message.Body === undefined || text === undefined) return undefined;
  try {
    const parsed = detailsSchema.safeParse(JSON.parse(text));
    return parsed.success ? { body: message.Body, details: parsed.data } : undefined;
  } catch {
    return undefined;
  }
};
