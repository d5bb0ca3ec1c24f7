import { describe, expect, it } from 'vitest';
import { createGroupStore, templateKey, type Group } from '../../src/domain/templates/group-store.js';
import { kindsOf } from '../../src/domain/templates/token-kind.js';

function group(seq: number, tokens: string[]): Group {
  return { id: `g${seq}`, seq, tokens, kinds: kindsOf(tokens), template: templateKey(tokens), count: 0 };
}

describe('createGroupStore', () => {
  it('keeps recency, overall and per bucket, as a list re-ordered on every insert, touch and remove would', () => {
    let seed = 9;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const firsts = ['a', 'b', '<*>'];
    const store = createGroupStore(10);
    // The model: least recently used first.
    let order: Group[] = [];
    let seq = 0;
    const bucketOf = (g: Group) => order.filter((o) => o.tokens.length === g.tokens.length && o.tokens[0] === g.tokens[0]);
    for (let step = 0; step < 2_000; step += 1) {
      const op = random(4);
      if (op === 0 || order.length === 0) {
        const g = group(seq, [firsts[random(3)] as string, `w${seq}`, ...Array.from({ length: random(2) }, () => 'x')]);
        seq += 1;
        store.insert(g);
        order.push(g);
      } else {
        const g = order[random(order.length)] as Group;
        order = order.filter((o) => o !== g);
        if (op === 1) store.remove(g);
        else {
          store.touch(g);
          order.push(g);
        }
      }
      expect([...store.groups()]).toEqual(order);
      expect(store.size).toBe(order.length);
      expect(store.oldest()).toBe(order[0]);
      const probe = order[random(order.length)];
      if (probe) {
        const bucket = bucketOf(probe);
        expect(store.oldestNeighbour(probe)).toEqual({ oldest: bucket[0], size: bucket.length });
        const expected = probe.tokens[0] === '<*>' ? bucket : [...bucket, ...order.filter((o) => o.tokens.length === probe.tokens.length && o.tokens[0] === '<*>')];
        expect(store.candidates(probe.tokens)).toEqual(expected);
        expect(store.byTemplate(probe.template)).toBe(probe);
      }
    }
  });
});
