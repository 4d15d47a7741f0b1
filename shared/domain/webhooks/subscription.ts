import type { EntityType } from '../levels';

/** The kinds of event a subscription may ask for, as they appear in a delivery's `type`. */
export const WEBHOOK_EVENT_KINDS = ['limit.reached', 'limit.changed'] as const;
export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number];

/** One entity a subscription is limited to; a subscription with none hears of every entity its owner may read. */
export interface WebhookEntityFilter {
  entityType: EntityType;
  entityId: number;
}

/** A signing secret (`whsec_` + base64 of 32 random bytes). After a rotation the old one signs too until it expires. */
export interface WebhookSecret {
  value: string;
  createdAt: string;
  expiresAt?: string;
}

/** A run of failed delivery attempts with no success between; cleared by the next success. */
export interface WebhookFailureRun {
  since: string;
  attempts: number;
}

/** A partner's subscription: who owns it, where and what to deliver, how to sign, and whether it is still on. */
export interface WebhookSubscription {
  id: string;
  userId: number;
  url: string;
  events: WebhookEventKind[];
  entities: WebhookEntityFilter[];
  /** Newest first. */
  secrets: WebhookSecret[];
  status: 'active' | 'disabled';
  disabledReason?: string;
  failureRun?: WebhookFailureRun;
  createdAt: string;
  /** When it last became active: its creation, or the enable.do that turned it back on. It hears events from then. */
  activeSince: string;
  /** Raised by every change its owner makes, each made on condition that it is still the one read. */
  version: number;
}
