import { deadLetterInvalidWrites } from './invalid-writes';
import type { ParsedMessage } from './accepted-messages';
import type { writeTargets } from './counter-targets';
import type { RecorderPorts, RecordingSummary } from './recorder-types';

/** The messages every item they touch took (or refused for good, dead-lettered), and the duplicates among them. */
export const settledMessages = async (
  ports: RecorderPorts,
  { valid, targetsOf }: { valid: readonly ParsedMessage[]; targetsOf: Map<string, string[]> },
  { outcomes, invalid }: Awaited<ReturnType<typeof writeTargets>>,
  summary: RecordingSummary,
) => {
  const done = new Set<string>();
  for (const message of valid) {
    const touched = targetsOf.get(message.messageId) ?? [];
    if (touched.every((name) => outcomes.get(name) !== undefined)) done.add(message.messageId);
    const skippedEverywhere = touched.every((name) =>
      outcomes.get(name)?.skipped.some((skipped) => skipped.messageId === message.messageId),
    );
    if (touched.length > 0 && skippedEverywhere) summary.duplicateMessages++;
  }
  const refused = await deadLetterInvalidWrites(
    ports.deadLetters,
    { messages: valid, targetsOf },
    { written: (name) => outcomes.get(name) !== undefined, invalid },
  );
  for (const { messageId } of refused) done.add(messageId);
  summary.deadLettered.push(...refused);
  return done;
};
