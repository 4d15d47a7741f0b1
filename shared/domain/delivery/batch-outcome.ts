/** A delivery message's place in its FIFO message group. */
export interface OrderedMessage {
  messageId: string;
  group: string;
  sequence: string;
}

/**
 * What to hand back to the queue (the partial batch response of a FIFO queue): in each message group, the first
 * message not applied everywhere and every later one, so that the group is delivered again in order. Later
 * messages that were applied count once all the same: their counter items skip them.
 */
export const messagesToRetry = (messages: readonly OrderedMessage[], done: ReadonlySet<string>): string[] => {
  const retried: string[] = [];
  const groups = new Map<string, OrderedMessage[]>();
  for (const message of messages) groups.set(message.group, [...(groups.get(message.group) ?? []), message]);
  for (const group of groups.values()) {
    const ordered = [...group].sort((a, b) => (a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : 0));
    const first = ordered.findIndex((message) => !done.has(message.messageId));
    if (first >= 0) retried.push(...ordered.slice(first).map((message) => message.messageId));
  }
  return retried;
};
