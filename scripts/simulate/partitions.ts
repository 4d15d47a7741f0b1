/** What one DynamoDB partition serves in a second, whatever the table's capacity mode [D1]. */
export const PARTITION_WRITE_UNITS_PER_SECOND = 1_000;
export const PARTITION_READ_UNITS_PER_SECOND = 3_000;

interface Partition {
  /** Its place in the model's list of partitions. */
  index: number;
  items: Set<number>;
  /** The write units served in the current one-second window, and that window's start (whole seconds). */
  window: number;
  used: number;
  /**
   * The same by item, kept only once the partition holds more than one item (alone, an item's units are `used`):
   * most partitions hold one item, and a run writes some 20 million times to a million of them.
   */
  usedByItem?: Map<number, number>;
  throttled: boolean;
}

const NOT_PLACED = -1;

/**
 * DynamoDB partitions as the simulation sees them. A partition serves at most 1,000 write units in any one-second
 * window; a write that would take it over is throttled (burst capacity does not lift a partition's limit). Items
 * sharing a partition key share a partition until adaptive capacity isolates them: at the end of a second in which
 * a partition throttled, its busiest item moves to a partition of its own (`splitHotPartitions`). An item alone in
 * its partition still has only 1,000 write units a second.
 */
export class PartitionModel {
  private readonly partitions: Partition[] = [];
  /** The partition (its index) of each item, by item number (items are numbered from 0), grown as needed. */
  private partitionOfItem = new Int32Array(1024).fill(NOT_PLACED);
  private readonly partitionOfKey = new Map<string, Partition>();
  throttledWrites = 0;
  acceptedWrites = 0;
  writeUnits = 0;
  /** The most write units any partition served in one second. */
  peakUnitsPerSecond = 0;

  /** Places an item in the partition of `partitionKey` (a new one for a new key), or alone when `isolated`. */
  place(item: number, partitionKey: string, isolated = false): void {
    if (this.partitionOf(item)) return;
    const home = isolated ? undefined : this.partitionOfKey.get(partitionKey);
    const partition = home ?? this.newPartition();
    if (!isolated && !home) this.partitionOfKey.set(partitionKey, partition);
    this.join(item, partition);
  }

  /** Writes `units` to `item` at `time` (seconds): true when served, false when throttled. */
  write(item: number, units: number, time: number): boolean {
    const partition = this.partitionOf(item);
    if (!partition) throw new Error(`item ${item} was never placed`);
    const window = Math.floor(time);
    if (window !== partition.window) {
      partition.window = window;
      partition.used = 0;
      partition.usedByItem?.clear();
    }
    if (partition.used + units > PARTITION_WRITE_UNITS_PER_SECOND) {
      partition.throttled = true;
      this.throttledWrites++;
      return false;
    }
    partition.used += units;
    this.peakUnitsPerSecond = Math.max(this.peakUnitsPerSecond, partition.used);
    const byItem = partition.usedByItem;
    if (byItem) byItem.set(item, (byItem.get(item) ?? 0) + units);
    this.acceptedWrites++;
    this.writeUnits += units;
    return true;
  }

  /** Adaptive capacity, once a second: every partition that throttled gives its busiest item a partition alone. */
  splitHotPartitions(): void {
    // the partitions there are now: those this split creates come after them
    for (let index = 0, count = this.partitions.length; index < count; index++) {
      const partition = this.partitions[index]!;
      if (!partition.throttled) continue;
      partition.throttled = false;
      if (partition.items.size < 2) continue;
      const [busiest] = [...(partition.usedByItem ?? [])].sort((a, b) => b[1] - a[1])[0] ?? [];
      if (busiest === undefined) continue;
      partition.items.delete(busiest);
      this.join(busiest, this.newPartition());
    }
  }

  partitionCount(): number {
    return this.partitions.length;
  }

  private partitionOf(item: number): Partition | undefined {
    const index = item < this.partitionOfItem.length ? this.partitionOfItem[item]! : NOT_PLACED;
    return index === NOT_PLACED ? undefined : this.partitions[index];
  }

  /**
   * Puts an item in a partition. A partition that held only ever one item starts counting by item when a second
   * joins: the one item has used all the partition used in its last window.
   */
  private join(item: number, partition: Partition): void {
    if (item >= this.partitionOfItem.length) {
      const grown = new Int32Array(Math.max(item + 1, 2 * this.partitionOfItem.length)).fill(NOT_PLACED);
      grown.set(this.partitionOfItem);
      this.partitionOfItem = grown;
    }
    if (partition.items.size === 1 && !partition.usedByItem) {
      const [sole] = partition.items;
      partition.usedByItem = new Map(partition.used > 0 ? [[sole!, partition.used]] : []);
    }
    partition.items.add(item);
    this.partitionOfItem[item] = partition.index;
  }

  private newPartition(): Partition {
    const partition: Partition = {
      index: this.partitions.length,
      items: new Set(),
      window: -1,
      used: 0,
      throttled: false,
    };
    this.partitions.push(partition);
    return partition;
  }
}
