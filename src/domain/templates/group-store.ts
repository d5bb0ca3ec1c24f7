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

export function createGroupStore(maxAliases: number): GroupStore {
  // Map and Set order is recency order: touching re-inserts at the end, eviction takes the first.
  const live = new Map<string, Group>();
  const exact = new Map<string, Group>();
  const buckets = new Map<string, Set<Group>>();
  const retired = new Map<string, string>();
  // The group inserted or touched last is already at the end of both orders: floods touch it again and again.
  let newest: Group | undefined;

  const bucketOf = (group: Group): string => bucketKey(group.tokens.length, group.tokens[0] ?? '');

  return {
    get size() {
      return live.size;
    },
    insert(group) {
      live.set(group.id, group);
      exact.set(group.template, group);
      const key = bucketOf(group);
      const bucket = buckets.get(key);
      if (bucket) bucket.add(group);
      else buckets.set(key, new Set([group]));
      newest = group;
    },
    remove(group) {
      if (newest === group) newest = undefined;
      live.delete(group.id);
      if (exact.get(group.template) === group) exact.delete(group.template);
      const bucketId = bucketOf(group);
      const bucket = buckets.get(bucketId);
      bucket?.delete(group);
      if (bucket?.size === 0) buckets.delete(bucketId);
    },
    touch(group) {
      if (newest === group) return;
      newest = group;
      live.delete(group.id);
      live.set(group.id, group);
      const bucket = buckets.get(bucketOf(group));
      bucket?.delete(group);
      bucket?.add(group);
    },
    oldest: () => live.values().next().value,
    oldestNeighbour(group) {
      const bucket = buckets.get(bucketOf(group));
      return { oldest: bucket?.values().next().value, size: bucket?.size ?? 0 };
    },
    byTemplate: (key) => exact.get(key),
    candidates(tokens) {
      const found = [...(buckets.get(bucketKey(tokens.length, tokens[0] ?? '')) ?? [])];
      if (tokens[0] !== WILDCARD) found.push(...(buckets.get(bucketKey(tokens.length, WILDCARD)) ?? []));
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
    groups: () => live.values(),
    aliases: () => retired.entries(),
  };
}
