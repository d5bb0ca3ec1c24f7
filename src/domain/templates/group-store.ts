import { WILDCARD } from './mask-message.js';
import { kindsOf } from './token-kind.js';

export interface Group {
  readonly id: string;
  /** Creation order; breaks ties so that a restored miner decides as the original would. */
  readonly seq: number;
  tokens: string[];
  /** `kindsOf(tokens)`, kept in step by `retemplate`. */
  kinds: Uint8Array;
  /** `templateKey(tokens)`: the template as text, kept in step by `retemplate`. */
  template: string;
  count: number;
  /**
   * Made by an older masking generation (a store written before an upgrade): never matched by
   * similarity, only adopted by a message whose older masking gives its template.
   */
  legacy?: boolean;
}

/**
 * The miner's memory: live groups in recency order, found by exact template or by (length, first
 * token), plus the ids of groups merged away, capped at `maxAliases` (oldest forgotten first). The
 * miner caps the groups, evicting through `oldest` and `oldestNeighbour`.
 */
export interface GroupStore {
  readonly size: number;
  insert(group: Group): void;
  remove(group: Group): void;
  touch(group: Group): void;
  /** The least recently used group, the one to evict. */
  oldest(): Group | undefined;
  /** The least recently used group sharing this one's length and first token, and how many share it. */
  oldestNeighbour(group: Group): { oldest: Group | undefined; size: number };
  /** How many groups share this one's length and first token, itself included. */
  neighbours(group: Group): number;
  byTemplate(key: string): Group | undefined;
  /** Groups that could take a message: same length, same first token or a wildcard there. */
  candidates(tokens: readonly string[]): Group[];
  /** Re-indexes a group whose template changed; returns a live group that already had that template. */
  retemplate(group: Group, tokens: string[]): Group | undefined;
  retire(id: string, survivor: string): void;
  resolve(id: string): Group | undefined;
  isTaken(id: string): boolean;
  groups(): Iterable<Group>;
  aliases(): Iterable<[string, string]>;
}

export function templateKey(tokens: readonly string[]): string {
  return tokens.join(' ');
}

function bucketKey(length: number, first: string): string {
  return `${length}\u0000${first}`;
}

/**
 * Recency is kept in two doubly linked lists threaded through the groups themselves — all live
 * groups, and the groups of each bucket — so that filing a message (touch, cap check) costs a few
 * pointer moves rather than hash-map deletes and re-inserts.
 */
interface Bucket {
  readonly key: string;
  size: number;
  oldest: Linked | undefined;
  newest: Linked | undefined;
}

interface Linked extends Group {
  older: Linked | undefined;
  newer: Linked | undefined;
  bucket: Bucket | undefined;
  bucketOlder: Linked | undefined;
  bucketNewer: Linked | undefined;
}

export function createGroupStore(maxAliases: number): GroupStore {
  const live = new Map<string, Linked>();
  const exact = new Map<string, Group>();
  const buckets = new Map<string, Bucket>();
  const retired = new Map<string, string>();
  let oldest: Linked | undefined;
  let newest: Linked | undefined;

  const unlink = (g: Linked): void => {
    if (g.older) g.older.newer = g.newer;
    else oldest = g.newer;
    if (g.newer) g.newer.older = g.older;
    else newest = g.older;
    g.older = undefined;
    g.newer = undefined;
  };
  const append = (g: Linked): void => {
    g.older = newest;
    g.newer = undefined;
    if (newest) newest.newer = g;
    else oldest = g;
    newest = g;
  };
  const unlinkFromBucket = (g: Linked, b: Bucket): void => {
    if (g.bucketOlder) g.bucketOlder.bucketNewer = g.bucketNewer;
    else b.oldest = g.bucketNewer;
    if (g.bucketNewer) g.bucketNewer.bucketOlder = g.bucketOlder;
    else b.newest = g.bucketOlder;
    g.bucketOlder = undefined;
    g.bucketNewer = undefined;
  };
  const appendToBucket = (g: Linked, b: Bucket): void => {
    g.bucketOlder = b.newest;
    g.bucketNewer = undefined;
    if (b.newest) b.newest.bucketNewer = g;
    else b.oldest = g;
    b.newest = g;
  };
  const collect = (b: Bucket | undefined, into: Group[]): void => {
    for (let g = b?.oldest; g; g = g.bucketNewer) into.push(g);
  };

  return {
    get size() {
      return live.size;
    },
    insert(group) {
      const g = group as Linked;
      live.set(g.id, g);
      exact.set(g.template, g);
      append(g);
      const key = bucketKey(g.tokens.length, g.tokens[0] ?? '');
      let b = buckets.get(key);
      if (!b) {
        b = { key, size: 0, oldest: undefined, newest: undefined };
        buckets.set(key, b);
      }
      g.bucket = b;
      appendToBucket(g, b);
      b.size += 1;
    },
    remove(group) {
      const g = group as Linked;
      if (live.get(g.id) !== g) return;
      live.delete(g.id);
      if (exact.get(g.template) === g) exact.delete(g.template);
      unlink(g);
      const b = g.bucket as Bucket;
      unlinkFromBucket(g, b);
      b.size -= 1;
      if (b.size === 0) buckets.delete(b.key);
      g.bucket = undefined;
    },
    touch(group) {
      const g = group as Linked;
      const b = g.bucket;
      if (!b) return;
      if (newest !== g) {
        unlink(g);
        append(g);
      }
      if (b.newest !== g) {
        unlinkFromBucket(g, b);
        appendToBucket(g, b);
      }
    },
    oldest: () => oldest,
    oldestNeighbour(group) {
      const b = (group as Linked).bucket;
      return { oldest: b?.oldest, size: b?.size ?? 0 };
    },
    neighbours: (group) => (group as Linked).bucket?.size ?? 0,
    byTemplate: (key) => exact.get(key),
    candidates(tokens) {
      const found: Group[] = [];
      collect(buckets.get(bucketKey(tokens.length, tokens[0] ?? '')), found);
      if (tokens[0] !== WILDCARD) collect(buckets.get(bucketKey(tokens.length, WILDCARD)), found);
      return found;
    },
    retemplate(group, tokens) {
      // The first token never changes (it names the event), so the bucket stays the same.
      if (exact.get(group.template) === group) exact.delete(group.template);
      group.tokens = tokens;
      group.kinds = kindsOf(tokens);
      group.template = templateKey(tokens);
      const clash = exact.get(group.template);
      if (clash && clash !== group) return clash;
      exact.set(group.template, group);
      return undefined;
    },
    retire(id, survivor) {
      retired.delete(id);
      retired.set(id, survivor);
      while (retired.size > maxAliases) retired.delete(retired.keys().next().value as string);
    },
    resolve(id) {
      let current = id;
      // Each retirement points at a live group, so chains stay short; the bound guards bad snapshots.
      for (let hops = 0; hops < 64; hops += 1) {
        const group = live.get(current);
        if (group) return group;
        const next = retired.get(current);
        if (next === undefined) return undefined;
        current = next;
      }
      return undefined;
    },
    isTaken: (id) => live.has(id) || retired.has(id),
    *groups() {
      for (let g = oldest; g; ) {
        const next: Linked | undefined = g.newer;
        yield g;
        g = next;
      }
    },
    aliases: () => retired.entries(),
  };
}
