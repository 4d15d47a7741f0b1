import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { describeError, logger } from '../../shared/observability/logger';

/** Records per GetRecords call: small pages keep a catalog import's burst of records from swelling the server's memory. */
const RECORDS_PER_READ = 100;

type Consumer = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;

/** A stream record as Lambda hands it over: the same images, a creation time in seconds. */
const asLambdaRecord = (record: StreamRecord): DynamoDBRecord =>
  ({
    eventName: record.eventName,
    dynamodb: {
      ...record.dynamodb,
      ApproximateCreationDateTime: record.dynamodb?.ApproximateCreationDateTime
        ? record.dynamodb.ApproximateCreationDateTime.getTime() / 1000
        : undefined,
    },
  }) as DynamoDBRecord;

/**
 * Locally, Lambda's event source mapping on the table's stream: DynamoDB Local's own stream, read shard by shard
 * and handed to the consumer in order. What the consumer reports failed is handed over again on the next drain.
 * Records written before the service started are not replayed.
 */
export class LocalTableStream {
  private readonly iterators = new Map<string, string | undefined>();
  private pending: DynamoDBRecord[] = [];
  private draining: Promise<void> = Promise.resolve();
  private timer?: NodeJS.Timeout;

  private constructor(
    private readonly client: DynamoDBStreamsClient,
    private readonly streamArn: string,
    private readonly consumer: Consumer,
    private readonly passes: (record: DynamoDBRecord) => boolean,
  ) {}

  static async open(
    client: DynamoDBStreamsClient,
    streamArn: string,
    consumer: Consumer,
    passes: (record: DynamoDBRecord) => boolean,
  ): Promise<LocalTableStream> {
    const stream = new LocalTableStream(client, streamArn, consumer, passes);
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
      if (!ShardId || this.iterators.has(ShardId)) continue;
      const { ShardIterator } = await this.client.send(
        new GetShardIteratorCommand({ StreamArn: this.streamArn, ShardId, ShardIteratorType: position }),
      );
      this.iterators.set(ShardId, ShardIterator);
    }
  }

  private async drainOnce(): Promise<void> {
    await this.discoverShards('TRIM_HORIZON');
    if (!(await this.deliver(this.pending))) return;
    for (const [shardId, iterator] of this.iterators) {
      let next = iterator;
      while (next) {
        const page = await this.client.send(new GetRecordsCommand({ ShardIterator: next, Limit: RECORDS_PER_READ }));
        next = page.NextShardIterator;
        this.iterators.set(shardId, next);
        const records = (page.Records ?? []).map(asLambdaRecord);
        // as the trigger's filter criteria do in AWS: what does not pass never reaches the function
        if (!(await this.deliver(records.filter(this.passes)))) return;
        if (records.length === 0) break;
      }
    }
  }

  /** Hands records over, one page at a time; what the consumer reports failed waits for the next drain. */
  private async deliver(records: DynamoDBRecord[]): Promise<boolean> {
    this.pending = [];
    if (records.length === 0) return true;
    const { batchItemFailures } = await this.consumer({ Records: records });
    const failed = batchItemFailures[0]?.itemIdentifier;
    const from = records.findIndex((record) => record.dynamodb?.SequenceNumber === failed);
    if (failed === undefined || from < 0) return true;
    this.pending = records.slice(from);
    return false;
  }
}
