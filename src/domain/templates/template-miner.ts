import { shortHash } from '../hash.js';
import { createGroupStore, templateKey, type Group } from './group-store.js';
import { maskMessage, MASKING_GENERATION, WILDCARD } from './mask-message.js';
import { siblingsToFold } from './fold-evidence.js';
import { compareToTemplate, generalize, type Tokens } from './match-template.js';
import { defaultMinerOptions, type MinerOptions } from './miner-options.js';
import type { MinerSnapshot } from './miner-snapshot.js';
import { kindsOf } from './token-kind.js';

export interface MinedTemplate {
  groupId: string;
  template: string;
}

export interface TemplateMiner {
  /** Files a message under a group. The id never changes as the template generalizes. */
  add(message: string): MinedTemplate;
  /**
   * Files a message masked elsewhere (another thread): `key` is `maskMessage(message, limits)`
   * with the miner's limits, joined by single spaces — tokens never hold whitespace.
   */
  addMasked(key: string): MinedTemplate;
  /** Current id and template for any id `add` returned: a merged group resolves to its survivor. */
  lookup(groupId: string): MinedTemplate | undefined;
  groupCount(): number;
  snapshot(): MinerSnapshot;
  /**
   * The merges learned since the last call, oldest first: [retired id, survivor id] for every
   * group that had been returned by `add`, so the incidents keyed on it can follow.
   */
  takeMerges(): [string, string][];
}

/**
 * An online template miner in the Drain family (He, Zhu, Zheng and Lyu, "Drain: An Online Log
 * Parsing Approach with Fixed Depth Tree", ICWS 2017). A message is first preprocessed as Qin et
 * al. 2024 ("Preprocessing is All You Need") propose — structured tokens masked, see mask-message.ts —
 * then joins the group whose template it fits best: Drain's fixed-depth lookup (same length and
 * first token) and similarity threshold (`minSimilarity` of the constants shared), with plain
 * words required equal. A plain word becomes a variable only on frequency evidence in the manner
 * of Brain (Yu et al., IEEE TSC 2023): several groups differ there and nowhere else, their
 * values rarely repeated (user names); a few values each seen often stay distinct events (see
 * fold-evidence.ts). Deterministic; memory capped by the options.
 */
export function createTemplateMiner(options: Partial<MinerOptions> = {}, snapshot?: MinerSnapshot): TemplateMiner {
  const config: MinerOptions = { ...defaultMinerOptions, ...options };
  const store = createGroupStore(config.maxAliases);
  let nextSeq = 0;
  let merges: [string, string][] = [];
  /** Live groups of an older masking generation, waiting to be adopted. */
  let legacyCount = 0;

  function findBest(message: Tokens): { group: Group; exact: boolean } | undefined {
    let best: Group | undefined;
    let bestScore = -1;
    let bestExact = false;
    for (const group of store.candidates(message.tokens)) {
      if (group.legacy) continue;
      const m = compareToTemplate(group, message);
      if (!m) continue;
      const exact = m.valueDiffs === 0;
      if (!exact && (m.same === 0 || m.same < config.minSimilarity * m.constants)) continue;
      // Fits without change first, then the most shared constants, then the oldest group.
      const score = (exact ? 1_000_000 : 0) + m.same * 1000 - m.valueDiffs;
      if (score > bestScore || (score === bestScore && best !== undefined && group.seq < best.seq)) {
        best = group;
        bestScore = score;
        bestExact = exact;
      }
    }
    return best && { group: best, exact: bestExact };
  }

  function createGroup(tokens: string[], kinds: Uint8Array, template: string): Group {
    let id = shortHash(template);
    for (let salt = 1; store.isTaken(id); salt += 1) id = shortHash(`${template}\u0000${salt}`);
    const group: Group = { id, seq: nextSeq, tokens, kinds, template, count: 0 };
    nextSeq += 1;
    store.insert(group);
    return group;
  }

  /** Folds the younger group into the older one, whose id survives; returns the survivor. */
  function merge(a: Group, b: Group): Group {
    const [survivor, gone] = a.seq < b.seq ? [a, b] : [b, a];
    if (gone.count > 0) merges.push([gone.id, survivor.id]);
    survivor.count += gone.count;
    store.remove(gone);
    store.retire(gone.id, survivor.id);
    return survivor;
  }

  function unmarkLegacy(group: Group): void {
    group.legacy = undefined;
    legacyCount -= 1;
  }

  function setTemplate(group: Group, tokens: string[]): Group {
    const clash = store.retemplate(group, tokens);
    if (clash?.legacy) unmarkLegacy(clash);
    return clash ? merge(group, clash) : group;
  }

  /**
   * A new group that differs from others only by words at a few positions may be one event with
   * variables there (user names, hosts); enough distinct, rarely repeated words make it so and
   * fold the siblings (see fold-evidence.ts).
   */
  function foldSiblings(group: Group): Group {
    const { siblings, positions } = siblingsToFold(group, store.candidates(group.tokens), config);
    if (siblings.length === 0) return group;
    let survivor = group;
    for (const sibling of siblings) survivor = merge(survivor, sibling);
    const variable = new Set(positions);
    return setTemplate(survivor, survivor.tokens.map((t, i) => (variable.has(i) ? WILDCARD : t)));
  }

  function forget(group: Group): void {
    if (group.legacy) legacyCount -= 1;
    store.remove(group);
  }

  function evictBeyondCaps(group: Group): void {
    while (store.neighbours(group) > config.maxGroupsPerBucket) forget(store.oldestNeighbour(group).oldest as Group);
    while (store.size > config.maxGroups) forget(store.oldest() as Group);
  }

  function add(message: string): MinedTemplate {
    const tokens = maskMessage(message, config);
    return file(templateKey(tokens), tokens, message);
  }

  /**
   * A group restored from a store written by an older masking generation, which this message
   * belongs to: its older masking gives the group's template exactly, or fits it as Drain would
   * (same length and first token, enough constants shared). Only the message itself can tell, so
   * legacy groups wait for one; the first takes the group's id over to the current template, and
   * the open incidents keyed on that id keep absorbing the failure.
   */
  function adoptLegacy(message: string, key: string, tokens: string[]): Group | undefined {
    const old = maskMessage(message, config, 1);
    const oldKey = templateKey(old);
    let found = store.byTemplate(oldKey);
    if (!found?.legacy) {
      found = undefined;
      const kinds = kindsOf(old);
      let bestSame = -1;
      for (const group of store.candidates(old)) {
        if (!group.legacy) continue;
        const m = compareToTemplate(group, { tokens: old, kinds });
        if (!m || (m.valueDiffs > 0 && (m.same === 0 || m.same < config.minSimilarity * m.constants))) continue;
        if (m.same > bestSame || (m.same === bestSame && found !== undefined && group.seq < found.seq)) {
          found = group;
          bestSame = m.same;
        }
      }
    }
    if (!found) return undefined;
    store.remove(found);
    legacyCount -= 1;
    const adopted: Group = { id: found.id, seq: found.seq, tokens, kinds: kindsOf(tokens), template: key, count: found.count };
    store.insert(adopted);
    return adopted;
  }

  /** `tokens` are the key's, split at spaces when not given. */
  function file(key: string, given?: string[], message?: string): MinedTemplate {
    let group = store.byTemplate(key);
    // Most messages mask alike in both generations: the legacy group is simply theirs.
    if (group?.legacy) unmarkLegacy(group);
    if (!group && legacyCount > 0 && message !== undefined) group = adoptLegacy(message, key, given ?? (key === '' ? [] : key.split(' ')));
    if (!group) {
      const tokens = given ?? (key === '' ? [] : key.split(' '));
      const kinds = kindsOf(tokens);
      const best = findBest({ tokens, kinds });
      if (!best) group = foldSiblings(createGroup(tokens, kinds, key));
      else group = best.exact ? best.group : setTemplate(best.group, generalize(best.group.tokens, tokens));
    }
    group.count += 1;
    store.touch(group);
    evictBeyondCaps(group);
    return { groupId: group.id, template: group.template };
  }

  if (snapshot) {
    for (const g of snapshot.groups) {
      if (store.isTaken(g.id)) continue;
      const tokens = [...g.template];
      const legacy = snapshot.version === 1 || (g.generation !== undefined && g.generation < MASKING_GENERATION);
      store.insert({ id: g.id, seq: g.seq, tokens, kinds: kindsOf(tokens), template: templateKey(tokens), count: g.count, ...(legacy ? { legacy } : {}) });
      if (legacy) legacyCount += 1;
      nextSeq = Math.max(nextSeq, g.seq + 1);
    }
    nextSeq = Math.max(nextSeq, snapshot.nextSeq);
    for (const [from, to] of snapshot.aliases) store.retire(from, to);
    while (store.size > config.maxGroups) forget(store.oldest() as Group);
  }

  return {
    add,
    addMasked: (key) => file(key),
    lookup(groupId) {
      const group = store.resolve(groupId);
      return group && { groupId: group.id, template: group.template };
    },
    groupCount: () => store.size,
    takeMerges() {
      const taken = merges;
      merges = [];
      return taken;
    },
    snapshot: () => ({
      version: 2,
      nextSeq,
      groups: [...store.groups()].map((g) => ({ id: g.id, seq: g.seq, template: [...g.tokens], count: g.count, ...(g.legacy ? { generation: 1 } : {}) })),
      aliases: [...store.aliases()],
    }),
  };
}
