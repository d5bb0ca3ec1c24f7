import { shortHash } from '../hash.js';
import { createGroupStore, templateKey, type Group } from './group-store.js';
import { maskMessage, WILDCARD } from './mask-message.js';
import { compareToTemplate, generalize, type Tokens } from './match-template.js';
import { defaultMinerOptions, type MinerOptions } from './miner-options.js';
import type { MinerSnapshot } from './miner-snapshot.js';
import { kindsOf, TokenKind } from './token-kind.js';

export interface MinedTemplate {
  groupId: string;
  template: string;
}

export interface TemplateMiner {
  /** Files a message under a group; the id is the group's for good (see `lookup` for merges). */
  add(message: string): MinedTemplate;
  /** Current id and template for any id `add` returned: a merged group resolves to its survivor. */
  lookup(groupId: string): MinedTemplate | undefined;
  groupCount(): number;
  snapshot(): MinerSnapshot;
}

/**
 * An online template miner in the Drain family. A message is masked (numbers, ids, paths… become
 * `<*>`), then joins the group whose template it fits best: same length and first token, plain
 * words equal, enough constants shared where value-like tokens differ. Plain words become a
 * variable only once several groups differ there and nowhere else (user names), so two failures
 * that share most words stay two groups. Deterministic; memory capped by `maxGroups`.
 */
export function createTemplateMiner(options: Partial<MinerOptions> = {}, snapshot?: MinerSnapshot): TemplateMiner {
  const config: MinerOptions = { ...defaultMinerOptions, ...options };
  const store = createGroupStore(config.maxAliases);
  let nextSeq = 0;

  function findBest(message: Tokens): Group | undefined {
    let best: Group | undefined;
    let bestScore = -1;
    for (const group of store.candidates(message.tokens)) {
      const m = compareToTemplate(group, message);
      if (!m) continue;
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

  function createGroup(message: { tokens: string[]; kinds: Uint8Array }): Group {
    const first = templateKey(message.tokens);
    let id = shortHash(first);
    for (let salt = 1; store.isTaken(id); salt += 1) id = shortHash(`${first}\u0000${salt}`);
    const group: Group = { id, seq: nextSeq, tokens: message.tokens, kinds: message.kinds, count: 0 };
    nextSeq += 1;
    store.insert(group);
    return group;
  }

  /** Folds `other` into `group` (or the reverse, so the older id survives); returns the survivor. */
  function merge(group: Group, other: Group): Group {
    const [survivor, gone] = group.seq < other.seq ? [group, other] : [other, group];
    survivor.count += gone.count;
    store.remove(gone);
    store.retire(gone.id, survivor.id);
    return survivor;
  }

  function setTemplate(group: Group, tokens: string[]): Group {
    const clash = store.retemplate(group, tokens);
    return clash ? merge(group, clash) : group;
  }

  /**
   * A new group that differs from others by one plain word at one position may be one event with
   * a variable there (a user name); enough distinct words make it so and fold the siblings.
   */
  function foldSiblings(group: Group): Group {
    const tokens = group.tokens;
    const siblingsAt = new Map<number, Group[]>();
    for (const other of store.candidates(tokens)) {
      const p = other === group ? -1 : soleDifference(other.tokens, tokens);
      if (p <= 0 || group.kinds[p] !== TokenKind.Word) continue;
      const siblings = siblingsAt.get(p);
      if (siblings) siblings.push(other);
      else siblingsAt.set(p, [other]);
    }
    // Lowest position first, so the outcome does not depend on the order groups are stored in.
    for (const p of [...siblingsAt.keys()].sort((a, b) => a - b)) {
      const siblings = siblingsAt.get(p) as Group[];
      if (siblings.length + 1 < config.siblingsToGeneralize) continue;
      let survivor = group;
      for (const sibling of siblings) survivor = merge(survivor, sibling);
      return setTemplate(survivor, survivor.tokens.map((t, i) => (i === p ? WILDCARD : t)));
    }
    return group;
  }

  function evictBeyondCaps(group: Group): void {
    for (let n = store.oldestNeighbour(group); n.size > config.maxGroupsPerBucket; n = store.oldestNeighbour(group)) {
      store.remove(n.oldest as Group);
    }
    while (store.size > config.maxGroups) store.remove(store.oldest() as Group);
  }

  function add(message: string): MinedTemplate {
    const tokens = maskMessage(message, config);
    let group = store.byTemplate(templateKey(tokens));
    if (!group) {
      const masked = { tokens, kinds: kindsOf(tokens) };
      const best = findBest(masked);
      group = best ? setTemplate(best, generalize(best.tokens, tokens)) : foldSiblings(createGroup(masked));
    }
    group.count += 1;
    store.touch(group);
    evictBeyondCaps(group);
    return { groupId: group.id, template: group.tokens.join(' ') };
  }

  if (snapshot) {
    nextSeq = snapshot.nextSeq;
    for (const g of snapshot.groups) {
      store.insert({ id: g.id, seq: g.seq, tokens: [...g.template], kinds: kindsOf(g.template), count: g.count });
    }
    for (const [from, to] of snapshot.aliases) store.retire(from, to);
  }

  return {
    add,
    lookup(groupId) {
      const group = store.resolve(groupId);
      return group && { groupId: group.id, template: group.tokens.join(' ') };
    },
    groupCount: () => store.size,
    snapshot: () => ({
      version: 1,
      nextSeq,
      groups: [...store.groups()].map((g) => ({ id: g.id, seq: g.seq, template: [...g.tokens], count: g.count })),
      aliases: [...store.aliases()],
    }),
  };
}

/** The one position where `other` has a different constant, or -1 when there is none or more. */
function soleDifference(other: readonly string[], tokens: readonly string[]): number {
  let found = -1;
  for (let i = 0; i < other.length; i += 1) {
    if (other[i] === tokens[i]) continue;
    if (found >= 0 || other[i] === WILDCARD) return -1;
    found = i;
  }
  return found;
}
