import { createRecorder } from '../functions/delivery-recorder/handler';
import type { LocalService } from '../infra/local/local-service';
import type { recordRequests } from './request-recorder';

export interface Throughput {
  events: number;
  seconds: number;
  eventsPerSecond: number;
  writes: number;
  writesPerEvent: number;
}

/** The recorder, called as Lambda would call it, on one batch of `events` impressions over 50 banners. */
export const measureThroughput = async (
  service: LocalService,
  recorder: ReturnType<typeof recordRequests>,
  events: number,
): Promise<Throughput> => {
  const record = createRecorder(service.dependencies);
  const batch = {
    Records: Array.from({ length: events }, (_, i) => ({
      messageId: String(i),
      body: JSON.stringify({ kind: 'impression', bannerId: 200_001 + (i % 50), revenue: '0.001' }),
    })),
  } as never;
  let seconds = 0;
  const sent = await recorder.during(async () => {
    const started = performance.now();
    const { response } = await record(batch);
    seconds = (performance.now() - started) / 1000;
    if (response.batchItemFailures.length > 0) throw new Error('the recorder failed messages');
  });
  const writes = sent.filter((command) => command.commandName === 'UpdateItemCommand').length;
  return {
    events,
    seconds: Math.round(seconds * 1000) / 1000,
    eventsPerSecond: Math.round(events / seconds),
    writes,
    writesPerEvent: Math.round((writes / events) * 10000) / 10000,
  };
};
