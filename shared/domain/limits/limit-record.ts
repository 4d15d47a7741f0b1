/** The settings of a limit record. Dates are epoch milliseconds UTC. */
export interface LimitSettings {
  startDate?: number;
  endDate?: number;
  evenPacing: boolean;
  useLocalTime: boolean;
  /** Minutes east of UTC in which run dates are entered and shown when useLocalTime is on. */
  timezoneOffset: number;
}

/** Caps and settings as they stand, before or after a change. */
export interface LimitState extends LimitSettings {
  /** Caps that were ever set, by parameter name; 0 means no cap. */
  caps: Record<string, number>;
}

export interface LimitRecord extends LimitState {
  id: number;
  /** Optimistic-locking version; every write conditions on the version it read. */
  version: number;
}

export const EMPTY_LIMIT: LimitState = { caps: {}, evenPacing: false, useLocalTime: false, timezoneOffset: 0 };
