import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/**
 * Where a tap runs: `initialize`, first of all, once per command (before the SDK's retries); `deserialize`, inside
 * the SDK's retry loop, once per attempt.
 */
export type TapStep = 'initialize' | 'deserialize';

type Handler = (args: { input: object }) => Promise<{ output: unknown }>;
type Context = { commandName?: string; clientName?: string };

/** A middleware, as the SDK's stack takes one. */
export type RequestTap = (next: Handler, context: Context) => Handler;

/**
 * Middleware the tests and the bench add to the local service's table client while it runs (probes, injected
 * faults, recorders). The client resolves its middleware once per kind of request, as a Lambda function's client
 * does (`cacheMiddleware`: some 0.1 ms a request), and so ignores middleware added to its stack after a kind's first
 * request; the two slots here are in its stack from the start and run the taps set when a request is sent, in the
 * order they were added.
 */
export class RequestTaps {
  private readonly taps = new Map<string, { step: TapStep; tap: RequestTap }>();

  constructor(client: DynamoDBClient) {
    const slot =
      (step: TapStep): RequestTap =>
      (next, context) =>
      (args) =>
        this.through(step, next, context)(args);
    const { middlewareStack } = client;
    middlewareStack.add(slot('initialize') as never, { step: 'initialize', name: 'localTaps', priority: 'high' });
    middlewareStack.add(slot('deserialize') as never, { step: 'deserialize', name: 'localRetriedTaps' });
  }

  /** Adds `tap` under `name`, replacing a tap of that name. */
  add(tap: RequestTap, { step, name }: { step: TapStep; name: string }): void {
    this.taps.set(name, { step, tap });
  }

  remove(name: string): void {
    this.taps.delete(name);
  }

  private through(step: TapStep, next: Handler, context: Context): Handler {
    if (this.taps.size === 0) return next;
    const taps = [...this.taps.values()].filter((each) => each.step === step);
    return taps.reduceRight<Handler>((inner, { tap }) => tap(inner, context), next);
  }
}
