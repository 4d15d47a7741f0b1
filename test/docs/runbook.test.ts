import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RUNBOOK_SECTIONS } from '../../infra/cdk/runbook-sections';

const runbook = readFileSync('docs/operations.md', 'utf8');

/** The text of each `###` section of the runbook, by its anchor. */
const sections = new Map(
  runbook
    .split(/^### /m)
    .slice(1)
    .map((section) => [section.slice(0, section.indexOf('\n')).trim().toLowerCase(), section] as const),
);

/**
 * Ways of putting dead letters back that give a message a new sequence number (a console redrive, SQS's message
 * move task, sending the body again), so that items which had applied it would count it again
 * (docs/exactly-once.md: only `npm run redrive` may replay delivery events).
 */
const RESEQUENCING_REPLAYS = [
  /DLQ redrive/i,
  /console'?s? redrive/i,
  /StartMessageMoveTask|start-message-move-task/i,
  /send(ing)? (them|it|the messages?|these messages) again/i,
  /move (them|it|the messages?|these messages) back/i,
];

/** Sentences of a section that tell the reader to replay in a way `forbidden` names (a prohibition is no instruction). */
const instructedReplays = (section: string): string[] =>
  section
    .replace(/`npm run redrive[^`]*`/g, 'the redrive tool')
    .split(/(?<=[.:])\s+/)
    .filter((sentence) => RESEQUENCING_REPLAYS.some((replay) => replay.test(sentence)))
    .filter((sentence) => !/\b(never|not)\b/i.test(sentence));

/** What the exactly-once design allows each dead-letter queue's procedure to replay with. */
const REPLAY_POLICY: Record<string, { resequencingAllowed: boolean; requires?: string }> = {
  deliveryeventsdlqarrivals: { resequencingAllowed: false, requires: '`TABLE_NAME=<TableName> npm run redrive' },
  // a reset applies once whatever the deliveries (RESET_APPLIED marker)
  queuedresetsdlqarrivals: { resequencingAllowed: true },
  // failure records of the stream: nothing to move back
  historyeventsdlqarrivals: { resequencingAllowed: true },
  // a missed hourly run: run the flush again by hand, each reset applies once
  hourlyresetflushdlqarrivals: { resequencingAllowed: true },
  // a fan-out again only repeats deliveries under the same webhook-id, which partners drop
  webhookeventsdlqarrivals: { resequencingAllowed: true },
  // a delivery is its body; it keeps its webhook-id however it is sent back
  webhookdeliveriesdlqarrivals: { resequencingAllowed: true, requires: 'npm run webhooks -- replay' },
};

describe('the runbook', () => {
  const deadLetterSections = RUNBOOK_SECTIONS.filter((section) => section.endsWith('dlqarrivals'));

  it('has a section of its own for each dead-letter queue, and a replay policy for each', () => {
    expect(deadLetterSections.length).toBeGreaterThanOrEqual(3);
    for (const section of deadLetterSections) {
      expect(sections.has(section), section).toBe(true);
      expect(REPLAY_POLICY[section], section).toBeDefined();
    }
  });

  it('names no replay the exactly-once design forbids, and names the one it allows, for each queue', () => {
    for (const section of deadLetterSections) {
      const text = sections.get(section)!;
      const policy = REPLAY_POLICY[section]!;
      if (!policy.resequencingAllowed) expect(instructedReplays(text), section).toEqual([]);
      if (policy.requires) expect(text, section).toContain(policy.requires);
    }
  });

  it("says why the delivery queue's dead letters replay only through npm run redrive", () => {
    const text = sections.get('deliveryeventsdlqarrivals')!;
    expect(text).toMatch(/new sequence number/);
    expect(text).toMatch(/count it a second time/);
  });

  it('would refuse the console redrive the runbook used to give for every dead-letter queue', () => {
    const before =
      '- **Do**: fix the cause, then redrive (SQS console → _Start DLQ redrive_ to the source queue). Messages are kept 14 days.';
    expect(instructedReplays(before)).toHaveLength(1);
    expect(instructedReplays('Never move these messages back with the console: use the tool.')).toEqual([]);
  });
});
