import { DISPATCHER_COST, PUSH_WORKLOAD, type TriggerSizing } from '../../infra/cdk/push-path';
import { RETRY_DELAYS_SECONDS, WEBHOOK_TIMEOUT_MS } from '../../shared/domain/webhooks/retry-schedule';
import type { EventHeap } from './event-heap';
import { LanePool, type Step } from './lane-pool';

/** The network's subscriptions: ten per user, a share of them at receivers that never answer. */
const SUBSCRIPTIONS = 10_000;
const PER_USER = 10;
const TIMEOUT = WEBHOOK_TIMEOUT_MS / 1000;
/** How long SQS takes to make a sent message visible to a trigger. */
const SEND_SECONDS = { least: 0.01, most: 0.05 };

interface Delivery {
  subscription: number;
  writtenAt: number;
  attempts: number;
}

export interface DispatcherMeasures {
  /** Seconds from the counting write to a healthy receiver's answer. */
  healthy: number[];
  deliveries: number;
  /** Write units a webhook partition (a user's) took in its busiest second. */
  hottestPartitionWriteUnits: number;
}

export interface DispatcherSetup {
  heap: EventHeap<Step>;
  random: () => number;
  triggers: { events: TriggerSizing; fast: TriggerSizing; slow: TriggerSizing };
  tarpitShare: number;
  /** False: one lane, as the dispatcher was, retrying in place. */
  lanes: boolean;
}

/**
 * The webhook dispatcher as `shared/webhooks/` runs it: fan-out of each event to its subscriptions, the fast lane
 * (no POST for a failing subscription: moved), the slow lane (every retry, on the Standard Webhooks schedule).
 */
export const dispatcherModel = ({ heap, random, triggers, tarpitShare, lanes }: DispatcherSetup) => {
  const measures: DispatcherMeasures = { healthy: [], deliveries: 0, hottestPartitionWriteUnits: 0 };
  const tarpit = Array.from({ length: SUBSCRIPTIONS }, () => random() < tarpitShare);
  // the tarpits have been failing a while (their failure runs recorded), as in a network that runs on: only the one
  // lane dispatcher, which knows no failing subscription, calls each again
  const failing = Uint8Array.from(tarpit, (isTarpit) => (isTarpit && lanes ? 1 : 0));
  const writesBySecond = new Map<string, number>();
  const write = (subscription: number, time: number) => {
    const key = `${Math.floor(subscription / PER_USER)}@${Math.floor(time)}`;
    const units = (writesBySecond.get(key) ?? 0) + 1;
    writesBySecond.set(key, units);
    measures.hottestPartitionWriteUnits = Math.max(measures.hottestPartitionWriteUnits, units);
  };
  const sent = (time: number) => time + SEND_SECONDS.least + (SEND_SECONDS.most - SEND_SECONDS.least) * random();
  const answer = () => 0.05 * 10 ** random();
  const pool = (trigger: TriggerSizing, handle: (delivery: Delivery, start: number) => number) =>
    new LanePool<Delivery>(heap, { ...trigger, random, handle });
  const retry = (delivery: Delivery, failedAt: number, target: LanePool<Delivery>) => {
    const wait = RETRY_DELAYS_SECONDS[delivery.attempts - 1];
    if (wait !== undefined) target.send({ ...delivery }, failedAt + wait);
  };
  const attempt = (delivery: Delivery, start: number, onFailure: (failedAt: number) => void): number => {
    delivery.attempts++;
    if (!tarpit[delivery.subscription]) {
      const seconds = answer();
      measures.healthy.push(start + seconds - delivery.writtenAt);
      return seconds;
    }
    heap.push(start + TIMEOUT, (failedAt) => {
      failing[delivery.subscription] = 1;
      write(delivery.subscription, failedAt);
      onFailure(failedAt);
    });
    return TIMEOUT;
  };
  const slow: LanePool<Delivery> = pool(triggers.slow, (delivery, start) =>
    attempt(delivery, start, (failedAt) => retry(delivery, failedAt, slow)),
  );
  const fast: LanePool<Delivery> = pool(triggers.fast, (delivery, start) => {
    if (lanes && failing[delivery.subscription]) {
      slow.send(delivery, sent(start + DISPATCHER_COST.moveSeconds));
      return DISPATCHER_COST.moveSeconds;
    }
    return attempt(delivery, start, (failedAt) => retry(delivery, failedAt, lanes ? slow : fast));
  });
  const events = new LanePool<number>(heap, {
    ...triggers.events,
    random,
    handle: (writtenAt, start) => {
      const seconds = DISPATCHER_COST.fanOutSeconds * (0.5 + random());
      for (let index = 0; index < PUSH_WORKLOAD.subscriptionsPerEvent; index++) {
        measures.deliveries++;
        const delivery = { subscription: Math.floor(random() * SUBSCRIPTIONS), writtenAt, attempts: 0 };
        fast.send(delivery, sent(start + seconds));
      }
      return seconds;
    },
  });
  return { measures, events };
};
