/**
 * An exact set of state-table ids for the pruner's marks: 32-byte node hashes in one open-addressing table of
 * bytes (linear probing, slots picked by the hash's own first bytes, which keccak makes uniform), anything else
 * (the 33-byte code ids, few) in a plain Set. A `Set<string>` of a few hundred thousand hashes made the collector
 * copy every new key out of the young generation (scavenges of 20–40 ms in a mark slice) and rehash the whole set
 * at each doubling; this table is two typed arrays, invisible to the collector, grown rarely (sized from the last
 * cycle's count). Every lookup compares all 32 bytes: a false "present" would skip a live subtree.
 */
const KEY = 32;

/** A state-table id as a Set key: one char per byte, no copy of the bytes. */
const markKey = (id: Uint8Array): string => Buffer.from(id.buffer, id.byteOffset, id.byteLength).toString('latin1');

export class NodeKeySet {
  private slots: Uint8Array;
  private used: Uint8Array;
  private mask: number;
  private count = 0;
  /** How far `prefault` got, in bytes of `slots`. */
  private faulted = 0;
  private readonly others = new Set<string>();

  /** `expected`: how many keys it will likely hold (the table starts at twice that, rounded up to a power of 2). */
  constructor(expected = 1 << 16) {
    let capacity = 1 << 10;
    while (capacity < expected * 2) capacity *= 2;
    this.slots = new Uint8Array(capacity * KEY);
    this.used = new Uint8Array(capacity);
    this.mask = capacity - 1;
  }

  get size(): number {
    return this.count + this.others.size;
  }

  /**
   * Writes to every memory page of the table, until `deadline` (performance.now() ms); true once all are. A fresh
   * table's pages are mapped by the kernel on first write (~18 µs a 4 KiB page in this VM: 0.3 s for 64 MiB); spread
   * over the walk's inserts they made it stall for tens of ms at a time, taken here in slices before the walk.
   */
  prefault(deadline: number): boolean {
    const { slots, used } = this;
    while (this.faulted < slots.length) {
      const end = Math.min(slots.length, this.faulted + (1 << 20));
      for (let i = this.faulted; i < end; i += 4096) slots[i] = 0;
      this.faulted = end;
      if (performance.now() >= deadline) return false;
    }
    for (let i = 0; i < used.length; i += 4096) used[i] = 0;
    return true;
  }

  has(id: Uint8Array): boolean {
    if (id.length !== KEY) return this.others.has(markKey(id));
    return this.find(id, 0) >= 0;
  }

  /** Whether the 32-byte key at `buf[at…at+32]` is held (the marker's stack and key buffers, without a view). */
  hasAt(buf: Uint8Array, at: number): boolean {
    return this.find(buf, at) >= 0;
  }

  /** Adds the 32-byte key at `buf[at…at+32]`; false when it was there already. */
  addAt(buf: Uint8Array, at: number): boolean {
    const slot = this.find(buf, at);
    if (slot >= 0) return false;
    if ((this.count + 1) * 2 > this.used.length) {
      this.grow();
      this.insert(buf, at, this.find(buf, at));
    } else this.insert(buf, at, slot);
    return true;
  }

  /** Adds `id`; false when it was there already. */
  add(id: Uint8Array): boolean {
    if (id.length !== KEY) {
      const key = markKey(id);
      if (this.others.has(key)) return false;
      this.others.add(key);
      return true;
    }
    return this.addAt(id, 0);
  }

  /** The slot holding `id` (>= 0), or -(free slot + 1) where it would go. */
  private find(id: Uint8Array, at: number): number {
    let i = ((id[at]! << 24) | (id[at + 1]! << 16) | (id[at + 2]! << 8) | id[at + 3]!) & this.mask;
    const { slots, used } = this;
    for (;;) {
      if (used[i] === 0) return -(i + 1);
      const base = i * KEY;
      let same = true;
      for (let b = 0; b < KEY; b++)
        if (slots[base + b] !== id[at + b]) {
          same = false;
          break;
        }
      if (same) return i;
      i = (i + 1) & this.mask;
    }
  }

  private insert(id: Uint8Array, at: number, free: number): void {
    const i = -free - 1;
    const { slots } = this;
    const base = i * KEY;
    for (let b = 0; b < KEY; b++) slots[base + b] = id[at + b]!;
    this.used[i] = 1;
    this.count++;
  }

  private grow(): void {
    const { slots, used } = this;
    const capacity = used.length * 2;
    this.slots = new Uint8Array(capacity * KEY);
    this.used = new Uint8Array(capacity);
    this.mask = capacity - 1;
    this.count = 0;
    for (let i = 0; i < used.length; i++)
      if (used[i] === 1) {
        this.insert(slots, i * KEY, this.find(slots, i * KEY));
      }
  }
}
