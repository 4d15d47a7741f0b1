/** The source and detail types of this service's events on its bus (the publisher, the stack's rules and archive). */
export const EVENT_SOURCE = 'delivery-limits';
export const LIMIT_REACHED = 'LimitReached';
export const LIMIT_CHANGED = 'LimitChanged';
