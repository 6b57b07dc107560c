/**
 * A bounded cache that keeps recently used entries: two generations of Maps. New and re-used entries
 * go into the young generation; when it is full it becomes the old one and the previous old one is
 * dropped. A hit costs one or two Map lookups (a strict LRU re-inserts on every hit, which profiled as
 * a visible cost on the trie-node caches, hit several times per account read). Holds at most
 * `capacity` entries, and at least the `capacity / 2` most recently used.
 */
export class Lru<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private readonly generationSize: number;

  constructor(capacity: number) {
    this.generationSize = Math.max(1, Math.floor(capacity / 2));
  }

  /** The most entries held at once. */
  get capacity(): number {
    return this.generationSize * 2;
  }

  /** Entries held now (at most the capacity). */
  get size(): number {
    return this.young.size + this.old.size;
  }

  get(key: K): V | undefined {
    const value = this.young.get(key);
    if (value !== undefined) return value;
    const aging = this.old.get(key);
    if (aging !== undefined) {
      this.old.delete(key);
      this.insertYoung(key, aging);
    }
    return aging;
  }

  set(key: K, value: V): void {
    this.old.delete(key);
    if (this.young.has(key)) this.young.set(key, value);
    else this.insertYoung(key, value);
  }

  delete(key: K): void {
    this.young.delete(key);
    this.old.delete(key);
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
  }

  private insertYoung(key: K, value: V): void {
    if (this.young.size >= this.generationSize) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }
}
