/** A min-heap of timed events: the simulation takes them in time order (ties in the order they were added). */
export class EventHeap<Event> {
  private readonly times: number[] = [];
  private readonly orders: number[] = [];
  private readonly events: Event[] = [];
  private added = 0;

  get size(): number {
    return this.events.length;
  }

  push(time: number, event: Event): void {
    this.times.push(time);
    this.orders.push(this.added++);
    this.events.push(event);
    for (let index = this.events.length - 1; index > 0;) {
      const parent = (index - 1) >> 1;
      if (!this.before(index, parent)) break;
      this.swap(index, parent);
      index = parent;
    }
  }

  /** The earliest event and its time; undefined when none is left. */
  pop(): { time: number; event: Event } | undefined {
    if (this.events.length === 0) return undefined;
    const top = { time: this.times[0]!, event: this.events[0]! };
    const last = this.events.length - 1;
    this.swap(0, last);
    this.times.pop();
    this.orders.pop();
    this.events.pop();
    for (let index = 0; ;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let smallest = index;
      if (left < this.events.length && this.before(left, smallest)) smallest = left;
      if (right < this.events.length && this.before(right, smallest)) smallest = right;
      if (smallest === index) break;
      this.swap(index, smallest);
      index = smallest;
    }
    return top;
  }

  private before(a: number, b: number): boolean {
    return this.times[a]! < this.times[b]! || (this.times[a] === this.times[b] && this.orders[a]! < this.orders[b]!);
  }

  private swap(a: number, b: number): void {
    [this.times[a], this.times[b]] = [this.times[b]!, this.times[a]!];
    [this.orders[a], this.orders[b]] = [this.orders[b]!, this.orders[a]!];
    [this.events[a], this.events[b]] = [this.events[b]!, this.events[a]!];
  }
}
