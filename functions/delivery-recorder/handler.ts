import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { recordDelivery, type RecorderOptions, type RecordingSummary } from '../../shared/delivery/recorder';
import { autoShardingFromEnvironment } from '../../shared/delivery/auto-sharding';
import { DEFAULT_FUTURE_TOLERANCE_MS } from '../../shared/domain/delivery/contributions';
import type { Ports } from '../../shared/runtime/dependencies';

type RecorderPorts = Ports<'store' | 'clock' | 'deadLetters'>;

/**
 * `FUTURE_TOLERANCE_SECONDS`: how far after its message was received an event's `at` may lie (clock skew) before
 * the event counts at the receive time instead; a whole number of seconds, 300 when unset.
 * `AUTO_SHARD_WRITES_PER_SECOND` and `AUTO_SHARD_COUNT`: an advertiser whose counters take more writes a second
 * gets that many shards (see `shared/delivery/auto-sharding.ts`); unset, off.
 */
export const recorderOptionsFromEnvironment = (env: NodeJS.ProcessEnv = process.env): RecorderOptions => {
  const autoShard = autoShardingFromEnvironment(env);
  const auto = autoShard ? { autoShard } : {};
  const text = env.FUTURE_TOLERANCE_SECONDS;
  if (text === undefined || text === '') return { futureToleranceMs: DEFAULT_FUTURE_TOLERANCE_MS, ...auto };
  if (!/^\d{1,7}$/.test(text))
    throw new Error(`FUTURE_TOLERANCE_SECONDS must be a whole number of seconds, not "${text}"`);
  return { futureToleranceMs: Number(text) * 1000, ...auto };
};

/** SQS's `ApproximateReceiveCount`, when it is a count: it only tells the recorder to read before it writes. */
const receiveCountOf = (text: string | undefined) =>
  text !== undefined && /^[1-9][0-9]{0,8}$/.test(text) ? { receiveCount: Number(text) } : {};

/** The SQS consumer, answering the partial batch response and, for the local server, what it recorded. */
export const createRecorder =
  (dependencies: RecorderPorts, options: RecorderOptions = {}) =>
  async (event: SQSEvent): Promise<{ response: SQSBatchResponse; summary: RecordingSummary }> => {
    const { failedMessageIds, summary } = await recordDelivery(
      dependencies,
      event.Records.map((record) => ({
        messageId: record.messageId,
        body: record.body,
        ...(record.attributes?.MessageGroupId !== undefined ? { group: record.attributes.MessageGroupId } : {}),
        ...(record.attributes?.SequenceNumber !== undefined ? { sequence: record.attributes.SequenceNumber } : {}),
        ...(record.attributes?.SentTimestamp !== undefined ? { sentAt: Number(record.attributes.SentTimestamp) } : {}),
        ...receiveCountOf(record.attributes?.ApproximateReceiveCount),
      })),
      options,
    );
    return { response: { batchItemFailures: failedMessageIds.map((itemIdentifier) => ({ itemIdentifier })) }, summary };
  };

export const createHandler = (dependencies: RecorderPorts, options: RecorderOptions = {}) => {
  const recorder = createRecorder(dependencies, options);
  return async (event: SQSEvent): Promise<SQSBatchResponse> => (await recorder(event)).response;
};
