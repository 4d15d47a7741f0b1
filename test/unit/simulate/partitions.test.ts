import { describe, expect, it } from 'vitest';
import { PartitionModel } from '../../../scripts/simulate/partitions';

describe('the simulated DynamoDB partition', () => {
  it('throttles the write that takes a partition over 1,000 write units in one second, and serves it the next', () => {
    const partitions = new PartitionModel();
    partitions.place(1, 'ADVERTISER#1');
    for (let write = 0; write < 500; write++) expect(partitions.write(1, 2, 3.5)).toBe(true);
    expect(partitions.write(1, 1, 3.99)).toBe(false);
    expect(partitions.throttledWrites).toBe(1);
    expect(partitions.write(1, 1, 4.0)).toBe(true);
  });

  it('gives no burst above the limit after idle seconds', () => {
    const partitions = new PartitionModel();
    partitions.place(1, 'ADVERTISER#1');
    expect(partitions.write(1, 1_000, 300)).toBe(true);
    expect(partitions.write(1, 1, 300.5)).toBe(false);
  });

  it('isolates the busiest item of a throttled partition the next second (adaptive capacity), never above the limit', () => {
    const partitions = new PartitionModel();
    partitions.place(1, 'ADVERTISER#1');
    partitions.place(2, 'ADVERTISER#1');
    expect(partitions.write(1, 700, 0)).toBe(true);
    expect(partitions.write(2, 400, 0.5)).toBe(false);
    partitions.splitHotPartitions();
    expect(partitions.partitionCount()).toBe(2);
    expect(partitions.write(1, 700, 1)).toBe(true);
    expect(partitions.write(2, 400, 1)).toBe(true);
    expect(partitions.write(1, 301, 1.5)).toBe(false);
  });

  it('counts by item from the moment a second item joins: the first keeps what it used alone, and is the busiest', () => {
    const partitions = new PartitionModel();
    partitions.place(1, 'ADVERTISER#1');
    expect(partitions.write(1, 600, 0)).toBe(true);
    partitions.place(2, 'ADVERTISER#1');
    partitions.place(3, 'ADVERTISER#1');
    expect(partitions.write(2, 300, 0.2)).toBe(true);
    expect(partitions.write(3, 200, 0.5)).toBe(false);
    partitions.splitHotPartitions();
    expect(partitions.partitionCount()).toBe(2);
    // item 1 is alone: items 2 and 3 share the other partition's 1,000 units
    expect(partitions.write(1, 600, 1)).toBe(true);
    expect(partitions.write(3, 500, 1)).toBe(true);
    expect(partitions.write(2, 501, 1)).toBe(false);
  });
});
