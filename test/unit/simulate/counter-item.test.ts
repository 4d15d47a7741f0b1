import { describe, expect, it, vi } from 'vitest';
import * as counterRequests from '../../../shared/adapters/dynamodb/counter-requests';
import { plannedAdvertiserWrite, writeUnitsByMarkers } from '../../../scripts/simulate/counter-item';
import { itemSize } from '../../../scripts/simulate/item-size';
import { storedItem } from '../../../shared/adapters/dynamodb/attribute-values';

const at = new Date('2026-11-25T12:00:00Z');

describe('the simulated counter item', () => {
  it('is built by the real request builder', () => {
    const builder = vi.spyOn(counterRequests, 'counterWriteRequest');
    const { after } = plannedAdvertiserWrite(undefined, { group: 3, sequence: 1, events: 1_000 }, at);
    expect(builder).toHaveBeenCalledTimes(1);
    const request = builder.mock.results[0]!.value as ReturnType<typeof counterRequests.counterWriteRequest>;
    // every attribute the update sets or adds is in the simulated item, every one it removes is not (a condition may
    // name others, absent by design)
    const clause = (keyword: string) =>
      new RegExp(`${keyword} (.*?)(?= (?:SET|ADD|REMOVE) |$)`).exec(request.UpdateExpression ?? '')?.[1] ?? '';
    const setOrAdd = `${clause('SET')} ${clause('ADD')}`;
    const removed = clause('REMOVE');
    const named = (clause: string) =>
      Object.entries(request.ExpressionAttributeNames ?? {}).filter(([placeholder]) =>
        new RegExp(`${placeholder}\\b`).test(clause),
      );
    expect(named(setOrAdd).length).toBeGreaterThan(0);
    for (const [, attribute] of named(setOrAdd)) expect(Object.keys(after)).toContain(attribute);
    for (const [, attribute] of named(removed)) expect(Object.keys(after)).not.toContain(attribute);
    builder.mockRestore();
  });

  it('grows with every message group that wrote it, and its writes cost a unit per started KB', () => {
    const { units, sizes } = writeUnitsByMarkers(40, at);
    expect(sizes[40]!).toBeGreaterThan(sizes[1]! + 39 * 25);
    expect(units[1]).toBe(1);
    expect(units[40]).toBe(Math.ceil(sizes[40]! / 1024));
  });

  it('is sized as DynamoDB stores it, each message group’s marker taking 26 bytes', () => {
    const first = plannedAdvertiserWrite(undefined, { group: 3, sequence: 1, events: 1_000 }, at);
    expect(first.sizeBefore).toBe(0);
    expect(first.sizeAfter).toBe(itemSize(storedItem(first.after)));
    const { sizes } = writeUnitsByMarkers(24, at);
    // `~producer-0007` (14 bytes), then a 20-digit sequence in 9 bytes, its length and the day in 2: 26 bytes
    for (const markers of [2, 11, 23]) expect(sizes[markers + 1]! - sizes[markers]!).toBe(14 + 1 + 9 + 2);
  });
});
