/** A binary heap: `before(a, b)` true when `a` must come out first. */
export class BinaryHeap<T> {
  private readonly items: T[] = [];

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(items[i], items[parent])) break;
      [items[i], items[parent]] = [items[parent], items[i]];
      i = parent;
    }
  }

  pop(): T | undefined {
    const items = this.items;
    if (items.length === 0) return undefined;
    const top = items[0];
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  /** Replaces the top item (cheaper than pop + push). */
  replaceTop(item: T): void {
    if (this.items.length === 0) throw new Error('replaceTop on an empty heap');
    this.items[0] = item;
    this.siftDown(0);
  }

  private siftDown(start: number): void {
    const items = this.items;
    const n = items.length;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let first = i;
      if (left < n && this.before(items[left], items[first])) first = left;
      if (right < n && this.before(items[right], items[first])) first = right;
      if (first === i) return;
      [items[i], items[first]] = [items[first], items[i]];
      i = first;
    }
  }
}
