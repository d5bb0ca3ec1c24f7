import { shortHash } from '../hash.js';
import { maskMessage, WILDCARD } from './mask-message.js';
import { compareToTemplate, generalize } from './match-template.js';
import { defaultMinerOptions, type MinerOptions } from './miner-options.js';
import type { MinerSnapshot } from './miner-snapshot.js';
import { isSymbolic, isValueLike } from './token-kind.js';

export interface MinedTemplate {
  groupId: string;
  template: string;
}

export interface TemplateMiner {
  add(message: string): MinedTemplate;
  /** The current id and template of any id `add` ever returned (merged groups resolve to the survivor). */
  lookup(groupId: string): MinedTemplate | undefined;
  groupCount(): number;
  snapshot(): MinerSnapshot;
}

interface Group {
  id: string;
  seq: number;
  tokens: string[];
  count: number;
}

export function createTemplateMiner(options: Partial<MinerOptions> = {}, snapshot?: MinerSnapshot): TemplateMiner {
  const config: MinerOptions = { ...defaultMinerOptions, ...options };
  // Map order is recency order: touching a group moves it to the end, eviction takes the first.
  const groups = new Map<string, Group>();
  const byLength = new Map<number, Set<Group>>();
  const aliases = new Map<string, string>();
  let nextSeq = 0;

  function bucket(length: number): Set<Group> {
    let found = byLength.get(length);
    if (!found) byLength.set(length, (found = new Set()));
    return found;
  }

  function insert(group: Group): void {
    groups.set(group.id, group);
    bucket(group.tokens.length).add(group);
  }

  function remove(group: Group): void {
    groups.delete(group.id);
    byLength.get(group.tokens.length)?.delete(group);
  }

  function touch(group: Group): void {
    groups.delete(group.id);
    groups.set(group.id, group);
  }

  function resolve(id: string): Group | undefined {
    let current = id;
    // Chains stay short (each merge points at a live survivor), the bound only guards corruption.
    for (let hops = 0; hops < 64; hops += 1) {
      const group = groups.get(current);
      if (group) return group;
      const next = aliases.get(current);
      if (next === undefined) return undefined;
      current = next;
    }
    return undefined;
  }

  function retire(id: string, survivor: string): void {
    aliases.delete(id);
    aliases.set(id, survivor);
    while (aliases.size > config.maxAliases) aliases.delete(aliases.keys().next().value as string);
  }

  function findBest(tokens: string[]): Group | undefined {
    let best: Group | undefined;
    let bestScore = -1;
    for (const group of byLength.get(tokens.length) ?? []) {
      const m = compareToTemplate(group.tokens, tokens);
      if (m.wordDiffs > 0) continue;
      if (m.valueDiffs > 0 && (m.same === 0 || m.same < config.minSimilarity * m.constants)) continue;
      // Exact fits first, then the most shared constants, then the oldest group.
      const score = (m.valueDiffs === 0 ? 1_000_000 : 0) + m.same * 1000 - m.valueDiffs;
      if (score > bestScore || (score === bestScore && best !== undefined && group.seq < best.seq)) {
        best = group;
        bestScore = score;
      }
    }
    return best;
  }

  function newGroup(tokens: string[]): Group {
    const first = tokens.join(' ');
    let id = shortHash(first);
    for (let salt = 1; groups.has(id) || aliases.has(id); salt += 1) id = shortHash(`${first}\u0000${salt}`);
    const group: Group = { id, seq: nextSeq, tokens, count: 0 };
    nextSeq += 1;
    insert(group);
    while (groups.size > config.maxGroups) remove(groups.values().next().value as Group);
    return group;
  }

  /**
   * A new group that differs from others only by one plain word at one position may be one event
   * with a variable there (a user name); enough distinct words make it so and fold the siblings.
   */
  function foldSiblings(group: Group): Group {
    const tokens = group.tokens;
    // The first word names the event (Drain's prefix tree assumes as much), so it never folds.
    for (let p = 1; p < tokens.length; p += 1) {
      const word = tokens[p] as string;
      if (isValueLike(word) || isSymbolic(word)) continue;
      const siblings: Group[] = [];
      for (const other of byLength.get(tokens.length) ?? []) {
        if (other !== group && differsOnlyAt(other.tokens, tokens, p)) siblings.push(other);
      }
      if (siblings.length + 1 < config.siblingsToGeneralize) continue;
      siblings.push(group);
      siblings.sort((a, b) => a.seq - b.seq);
      const survivor = siblings[0] as Group;
      survivor.tokens = survivor.tokens.map((t, i) => (i === p ? WILDCARD : t));
      for (const other of siblings.slice(1)) {
        survivor.count += other.count;
        remove(other);
        retire(other.id, survivor.id);
      }
      return survivor;
    }
    return group;
  }

  function add(message: string): MinedTemplate {
    const tokens = maskMessage(message, config);
    let group = findBest(tokens);
    if (group) {
      if (group.tokens.some((t, i) => t !== tokens[i])) group.tokens = generalize(group.tokens, tokens);
    } else {
      group = foldSiblings(newGroup(tokens));
    }
    group.count += 1;
    touch(group);
    return { groupId: group.id, template: group.tokens.join(' ') };
  }

  if (snapshot) {
    nextSeq = snapshot.nextSeq;
    for (const g of snapshot.groups) insert({ id: g.id, seq: g.seq, tokens: [...g.template], count: g.count });
    for (const [from, to] of snapshot.aliases) aliases.set(from, to);
  }

  return {
    add,
    lookup(groupId) {
      const group = resolve(groupId);
      return group && { groupId: group.id, template: group.tokens.join(' ') };
    },
    groupCount: () => groups.size,
    snapshot: () => ({
      version: 1,
      nextSeq,
      groups: [...groups.values()].map((g) => ({ id: g.id, seq: g.seq, template: [...g.tokens], count: g.count })),
      aliases: [...aliases.entries()],
    }),
  };
}

function differsOnlyAt(a: readonly string[], b: readonly string[], position: number): boolean {
  for (let i = 0; i < a.length; i += 1) {
    if (i === position) {
      if (a[i] === b[i] || a[i] === WILDCARD) return false;
    } else if (a[i] !== b[i]) return false;
  }
  return true;
}
