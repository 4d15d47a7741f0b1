import { describe, expect, it } from 'vitest';
import { messagesToRetry } from '../../../../shared/domain/delivery/batch-outcome';
import { sequenceText } from '../../../../shared/domain/delivery/counter-plan';

const message = (messageId: string, group: string, sequence: number) => ({
  messageId,
  group,
  sequence: sequenceText(sequence),
});

describe('what a batch hands back', () => {
  it('is, per group, the first message not applied everywhere and every later one, in order', () => {
    const batch = [message('a3', 'a', 3), message('a1', 'a', 1), message('a2', 'a', 2), message('b1', 'b', 1)];
    expect(messagesToRetry(batch, new Set(['a1', 'a3', 'b1']))).toEqual(['a2', 'a3']);
    expect(messagesToRetry(batch, new Set(['a1', 'a2', 'a3', 'b1']))).toEqual([]);
    expect(messagesToRetry(batch, new Set())).toEqual(['a1', 'a2', 'a3', 'b1']);
  });
});
