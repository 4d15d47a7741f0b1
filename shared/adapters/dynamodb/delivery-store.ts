import { NumberValue, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { ActionIncrement, BucketIncrement, NoConversionUpdate } from '../../domain/delivery/aggregate';
import { actionCounterKey, counterKey, noConversionKey } from '../../table/keys';
import { millisToDecimal } from '../../domain/delivery/delivery-event';

type Update = Omit<UpdateCommandInput, 'TableName'>;

/** One atomic ADD per (entity, bucket); returns the new counters so crossings can be seen. */
export const bucketUpdateRequest = (increment: BucketIncrement): Update => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const adds: string[] = [];
  Object.entries(increment.counts).forEach(([metric, count], index) => {
    names[`#m${index}`] = metric;
    values[`:m${index}`] = count;
    adds.push(`#m${index} :m${index}`);
  });
  if (increment.revenueMillis > 0) {
    names['#revenue'] = 'revenue';
    // an exact decimal: DynamoDB adds decimals exactly, JavaScript numbers do not
    values[':revenue'] = NumberValue.from(millisToDecimal(increment.revenueMillis));
    adds.push('#revenue :revenue');
  }
  const sets = increment.expiresAt !== undefined ? ' SET expiresAt = if_not_exists(expiresAt, :expiresAt)' : '';
  if (increment.expiresAt !== undefined) values[':expiresAt'] = increment.expiresAt;
  return {
    Key: counterKey(increment.entityType, increment.entityId, increment.bucket),
    UpdateExpression: `ADD ${adds.join(', ')}${sets}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ReturnValues: 'UPDATED_NEW',
  };
};

export const actionUpdateRequest = (increment: ActionIncrement): Update => ({
  Key: actionCounterKey(increment.entityType, increment.entityId, increment.actionId, increment.bucket),
  UpdateExpression: `ADD conversions :count${increment.expiresAt !== undefined ? ' SET expiresAt = if_not_exists(expiresAt, :expiresAt)' : ''}`,
  ExpressionAttributeValues: {
    ':count': increment.conversions,
    ...(increment.expiresAt !== undefined ? { ':expiresAt': increment.expiresAt } : {}),
  },
  ReturnValues: 'UPDATED_NEW',
});

/**
 * No-conversion state: impressions since the last conversion, and `quietSince`, when the last conversion came
 * (or the first delivery, for an entity that never converted). A batch with a conversion restarts the count;
 * when a later conversion is already stored, the fallback only adds the batch's later impressions.
 */
export const noConversionRequests = (update: NoConversionUpdate): { primary: Update; fallback?: Update } => {
  const addImpressions: Update = {
    Key: noConversionKey(update.entityType, update.entityId),
    UpdateExpression: 'ADD impressionsSinceConversion :count SET quietSince = if_not_exists(quietSince, :first)',
    ExpressionAttributeValues: { ':count': update.impressionsSinceConversion, ':first': update.firstDeliveryAt },
  };
  if (update.lastConversionAt === undefined) return { primary: addImpressions };
  return {
    primary: {
      Key: noConversionKey(update.entityType, update.entityId),
      UpdateExpression: 'SET quietSince = :at, impressionsSinceConversion = :count',
      ConditionExpression: 'attribute_not_exists(quietSince) OR quietSince <= :at',
      ExpressionAttributeValues: { ':at': update.lastConversionAt, ':count': update.impressionsSinceConversion },
    },
    ...(update.impressionsSinceConversion > 0 ? { fallback: addImpressions } : {}),
  };
};
