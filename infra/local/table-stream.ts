import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { describeError, logger } from '../../shared/observability/logger';
import type { StreamTriggerSettings } from '../../shared/table/stream-trigger';
import { batchesOf, handOver, type DiscardedBatch, type InvocationOutcome, type StreamBatch } from './stream-mapping';

type Consumer = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;

export interface LocalTableStreamOptions {
  consumer: Consumer;
  /** What the trigger's filter criteria pass. */
  passes: (record: DynamoDBRecord) => boolean;
  settings: StreamTriggerSettings;
  /** The trigger's on-failure destination. */
  onFailure: (discarded: DiscardedBatch) => void;
  /** The clock records are timed by and aged against, in epoch seconds; this machine's by default. */
  nowSeconds?: () => number;
}

/**
 * An attribute value as Lambda hands it over (JSON): binary as base64 text, and an empty map as `{"M": {}}`, which
 * the SDK's stream client turns into `{}`.
 */
const lambdaValue = (value: AttributeValue): AttributeValue => {
  if (value.M !== undefined || Object.keys(value).length === 0) return { M: lambdaImage(value.M ?? {}) };
  if (value.L !== undefined) return { L: value.L.map(lambdaValue) };
  if (value.B !== undefined) return { B: Buffer.from(value.B).toString('base64') } as unknown as AttributeValue;
  if (value.BS !== undefined)
    return { BS: value.BS.map((bytes) => Buffer.from(bytes).toString('base64')) } as unknown as AttributeValue;
  return value;
};

const lambdaImage = (image: Record<string, AttributeValue>): Record<string, AttributeValue> =>
  Object.fromEntries(Object.entries(image).map(([name, value]) => [name, lambdaValue(value)]));

/**
 * A stream record as Lambda hands it over: the same images in Lambda's JSON shape, and a creation time in whole
 * seconds, as DynamoDB Streams gives the second of the write. DynamoDB Local's own time is rounded down to the
 * minute: a record gets the second it is read in instead, by the local clock, which is what the rest of the local
 * service keeps time by (the stream is read every second, and at once after a delivery post).
 */
const asLambdaRecord = (record: StreamRecord, streamArn: string, createdAtSeconds: number): DynamoDBRecord => {
  const { NewImage, OldImage } = record.dynamodb ?? {};
  return {
    eventName: record.eventName,
    eventSourceARN: streamArn,
    dynamodb: {
      ...record.dynamodb,
      ...(NewImage ? { NewImage: lambdaImage(NewImage) } : {}),
      ...(OldImage ? { OldImage: lambdaImage(OldImage) } : {}),
      ApproximateCreationDateTime: createdAtSeconds,
    },
  } as DynamoDBRecord;
};

interface Shard {
  id: string;
  iterator: string | undefined;
  /** Batches waiting, retries first; while the first one waits for a retry, the shard reads nothing further. */
  batches: StreamBatch[];
}

/** Records per GetRecords call: small pages keep a catalog import's burst of records from swelling the server's memory. */
const RECORDS_PER_READ = 100;

/**
 * Locally, Lambda's event source mapping on the table's stream, from the settings the stack declares: DynamoDB
 * Local's own stream, read shard by shard and handed to the consumer in order, in batches of the trigger's size.
 * A failed batch is retried on the next drain (bisected, at most `retryAttempts` times, while younger than the
 * maximum age); then it goes to the on-failure destination and the shard moves on. A shard that waits for a
 * retry holds up no other shard. Records written before the service started are not replayed.
 */
export class LocalTableStream {
  private readonly shards = new Map<string, Shard>();
  private draining: Promise<void> = Promise.resolve();
  private timer?: NodeJS.Timeout;

  private constructor(
    private readonly client: DynamoDBStreamsClient,
    private readonly streamArn: string,
    private readonly options: LocalTableStreamOptions,
  ) {}

  static async open(
    client: DynamoDBStreamsClient,
    streamArn: string,
    options: LocalTableStreamOptions,
  ): Promise<LocalTableStream> {
    const stream = new LocalTableStream(client, streamArn, options);
    await stream.discoverShards('LATEST');
    return stream;
  }

  /** Hands over everything written so far; drains run one at a time. */
  drain(): Promise<void> {
    this.draining = this.draining
      .then(() => this.drainOnce())
      .catch((error: unknown) => {
        logger.error('reading the local table stream failed', describeError(error));
      });
    return this.draining;
  }

  /** Drains every `intervalMs` in the background, as Lambda polls a stream. */
  poll(intervalMs: number): void {
    this.timer = setInterval(() => void this.drain(), intervalMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.draining;
    this.client.destroy();
  }

  private async discoverShards(position: 'LATEST' | 'TRIM_HORIZON'): Promise<void> {
    const { StreamDescription } = await this.client.send(new DescribeStreamCommand({ StreamArn: this.streamArn }));
    for (const { ShardId } of StreamDescription?.Shards ?? []) {
      if (!ShardId || this.shards.has(ShardId)) continue;
      const { ShardIterator } = await this.client.send(
        new GetShardIteratorCommand({ StreamArn: this.streamArn, ShardId, ShardIteratorType: position }),
      );
      this.shards.set(ShardId, { id: ShardId, iterator: ShardIterator, batches: [] });
    }
  }

  private async drainOnce(): Promise<void> {
    await this.discoverShards('TRIM_HORIZON');
    for (const shard of this.shards.values()) {
      if (!(await this.handOver(shard))) continue;
      while (shard.iterator) {
        const page = await this.client.send(
          new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: RECORDS_PER_READ }),
        );
        shard.iterator = page.NextShardIterator;
        const readAt = Math.floor(this.nowSeconds());
        const records = (page.Records ?? []).map((record) => asLambdaRecord(record, this.streamArn, readAt));
        // as the trigger's filter criteria do in AWS: what does not pass never reaches the function
        shard.batches.push(...batchesOf(this.options.settings, records.filter(this.options.passes)));
        if (!(await this.handOver(shard)) || records.length === 0) break;
      }
    }
  }

  /** Hands the shard's waiting batches over in order; false when one failed and waits for the next drain. */
  private handOver(shard: Shard): Promise<boolean> {
    const { settings, onFailure } = this.options;
    return handOver(settings, shard, {
      invoke: (batch) => this.invoke(batch),
      onFailure,
      nowSeconds: this.nowSeconds(),
    });
  }

  private nowSeconds(): number {
    return this.options.nowSeconds?.() ?? Date.now() / 1000;
  }

  private async invoke(batch: StreamBatch): Promise<InvocationOutcome> {
    try {
      return { answer: await this.options.consumer({ Records: batch.records }) };
    } catch (error) {
      logger.error('the table stream consumer failed; its batch is retried', describeError(error));
      return { error };
    }
  }
}
