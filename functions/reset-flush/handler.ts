import type { Context } from 'aws-lambda';
import { flushResets, type FlushResult } from '../../shared/resets/flush';
import type { ResetSource } from '../../shared/ports/reset-queue';
import type { Ports } from '../../shared/runtime/dependencies';

/** Stop taking new messages when less than this is left of the invocation. */
const SAFETY_MARGIN_MS = 15_000;

/** Started hourly by EventBridge: drains `queued-resets` and applies every reset in it. */
export const createHandler =
  (dependencies: Ports<'store' | 'clock'>, source: ResetSource) =>
  async (_event: unknown, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<FlushResult> =>
    flushResets({ store: dependencies.store, clock: dependencies.clock, source }, () =>
      context ? context.getRemainingTimeInMillis() > SAFETY_MARGIN_MS : true,
    );
