/** What one DynamoDB partition serves in a second, whatever the table's capacity mode [D1]. */
export const PARTITION_WRITE_UNITS_PER_SECOND = 1_000;
export const PARTITION_READ_UNITS_PER_SECOND = 3_000;

interface Partition {
  items: Set<number>;
  /** Write units left in the current one-second window, and that window's start (whole seconds). */
  window: number;
  used: number;
  usedByItem: Map<number, number>;
  throttled: boolean;
}

/**
 * DynamoDB partitions as the simulation sees them. A partition serves at most 1,000 write units in any one-second
 * window; a write that would take it over is throttled (burst capacity does not lift a partition's limit). Items
 * sharing a partition key share a partition until adaptive capacity isolates them: at the end of a second in which
 * a partition throttled, its busiest item moves to a partition of its own (`splitHotPartitions`). An item alone in
 * its partition still has only 1,000 write units a second.
 */
export class PartitionModel {
  private readonly partitions: Partition[] = [];
  private readonly placement = new Map<number | string, Partition>();
  throttledWrites = 0;
  acceptedWrites = 0;
  writeUnits = 0;
  /** The most write units any partition served in one second. */
  peakUnitsPerSecond = 0;

  /** Places an item in the partition of `partitionKey` (a new one for a new key), or alone when `isolated`. */
  place(item: number, partitionKey: string, isolated = false): void {
    if (this.placement.has(item)) return;
    const home = isolated ? undefined : this.placement.get(`key:${partitionKey}`);
    const partition = home ?? this.newPartition();
    if (!isolated && !home) this.placement.set(`key:${partitionKey}`, partition);
    partition.items.add(item);
    this.placement.set(item, partition);
  }

  /** Writes `units` to `item` at `time` (seconds): true when served, false when throttled. */
  write(item: number, units: number, time: number): boolean {
    const partition = this.placement.get(item);
    if (!partition) throw new Error(`item ${item} was never placed`);
    const window = Math.floor(time);
    if (window !== partition.window) {
      partition.window = window;
      partition.used = 0;
      partition.usedByItem.clear();
    }
    if (partition.used + units > PARTITION_WRITE_UNITS_PER_SECOND) {
      partition.throttled = true;
      this.throttledWrites++;
      return false;
    }
    partition.used += units;
    this.peakUnitsPerSecond = Math.max(this.peakUnitsPerSecond, partition.used);
    partition.usedByItem.set(item, (partition.usedByItem.get(item) ?? 0) + units);
    this.acceptedWrites++;
    this.writeUnits += units;
    return true;
  }

  /** Adaptive capacity, once a second: every partition that throttled gives its busiest item a partition alone. */
  splitHotPartitions(): void {
    for (const partition of [...this.partitions]) {
      if (!partition.throttled) continue;
      partition.throttled = false;
      if (partition.items.size < 2) continue;
      const [busiest] = [...partition.usedByItem].sort((a, b) => b[1] - a[1])[0] ?? [];
      if (busiest === undefined) continue;
      partition.items.delete(busiest);
      const alone = this.newPartition();
      alone.items.add(busiest);
      this.placement.set(busiest, alone);
    }
  }

  partitionCount(): number {
    return this.partitions.length;
  }

  private newPartition(): Partition {
    const partition: Partition = { items: new Set(), window: -1, used: 0, usedByItem: new Map(), throttled: false };
    this.partitions.push(partition);
    return partition;
  }
}
