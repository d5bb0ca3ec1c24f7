import { describe, expect, it } from 'vitest';
import { changeHunks } from '../../src/domain/change-hunks.js';
import { countMentions, declaredNames } from '../../src/domain/declared-names.js';
import { couplingRefusal, lookupRefusal, namesToLookUp, type ConsistencyInput } from '../../src/domain/revert-consistency.js';

describe('declaredNames', () => {
  it('reads declarations across languages, module bindings but not locals', () => {
    const code = [
      'export function placeOrder(cart) {',
      '  const local = 1;',
      'def refund_order(order):',
      'func (s *Store) Reserve(id string) error {',
      'pub fn settle(amount: u64) -> u64 {',
      'class Basket:',
      'export const MAX_ITEMS = 10;',
      'RETRY_LIMIT = 3',
      '  public static int totalOf(List<Item> items) {',
      'type Cents = number;',
      '  if (x) {',
    ];
    expect([...declaredNames(code)].sort()).toEqual(['Basket', 'Cents', 'MAX_ITEMS', 'RETRY_LIMIT', 'Reserve', 'placeOrder', 'refund_order', 'settle', 'totalOf']);
  });

  it('reads member declarations only when asked, and never a value list', () => {
    const code = ['  declineReason?: string;', '  readonly id: string', '  amount: request.amount,'];
    expect([...declaredNames(code)]).toEqual([]);
    expect([...declaredNames(code, { members: true })].sort()).toEqual(['declineReason', 'id']);
  });

  it('counts whole words only', () => {
    expect(countMentions('totalOf(a) + subtotalOf(b) + totalOfAll + $totalOf', 'totalOf')).toBe(1);
  });
});

const hunksOf = (before: string, after: string) => changeHunks(before, after);

describe('revert consistency', () => {
  it('refuses to bring back a use of a declaration the commit removed in a change the revert keeps', () => {
    // The commit reshaped a type (kept) and adapted the code reading it (reverted).
    const typeBefore = 'interface Body {\n  declineReason?: string;\n}\n';
    const typeAfter = 'interface Body {\n  decline?: { reason: string };\n}\n';
    const useHunk = hunksOf('reason = body.declineReason;\n', 'reason = body.decline?.reason;\n');
    const input: ConsistencyInput = { revertedContent: 'reason = body.declineReason;\n', reverted: useHunk, kept: hunksOf(typeBefore, typeAfter).map((hunk) => ({ label: 'src/body.ts', hunk })), beforeTexts: [typeBefore] };
    expect(couplingRefusal(input)).toContain('`declineReason`, whose declaration the same commit removed in src/body.ts');
  });

  it('lets a declaration the commit only changed, or moved, be used by the restored lines', () => {
    const moved = hunksOf('export function total(a) {}\n', '');
    const added = hunksOf('', 'export function total(a, b) {}\n');
    const input: ConsistencyInput = { revertedContent: 'x = total(a);\n', reverted: hunksOf('x = total(a);\n', 'x = sum(a);\n'), kept: [...moved, ...added].map((hunk) => ({ label: 'f', hunk })), beforeTexts: [] };
    expect(couplingRefusal(input)).toBeUndefined();
  });

  it('names what the revert removes that other files still use, and what it brings back that exists nowhere', () => {
    const reverted = hunksOf('const x = oldTotal(cart);\n', 'export function newTotal(c) {}\nconst x = newTotal(cart);\n');
    const input: ConsistencyInput = { revertedContent: 'const x = oldTotal(cart);\n', reverted, kept: [], beforeTexts: ['export function oldTotal(c) {}\n'] };
    const names = namesToLookUp(input);
    expect(names).toEqual({ removed: ['newTotal'], restored: ['oldTotal'] });
    const used = new Map([['newTotal', ['src/a.ts', 'src/b.ts']], ['oldTotal', []]]);
    expect(lookupRefusal(input, names, used, true)).toBe("the revert would remove `newTotal`, which src/a.ts, src/b.ts still use: the commit's other changes depend on it");
    const unused = new Map([['newTotal', []], ['oldTotal', []]]);
    expect(lookupRefusal(input, names, unused, true)).toContain('would bring back `oldTotal`, which no longer exists anywhere in the repository');
    expect(lookupRefusal(input, names, new Map([['newTotal', []], ['oldTotal', ['src/legacy.ts']]]), true)).toBeUndefined();
    expect(lookupRefusal(input, names, new Map([['newTotal', []], ['oldTotal', ['src/legacy.ts']]]), false)).toContain('could not read every file');
  });

  it('looks nothing up when the restored lines use only what the file still declares', () => {
    const content = 'export function isDiscountable(l) {}\nconst n = lines.filter(isDiscountable).length;\n';
    const input: ConsistencyInput = { revertedContent: content, reverted: hunksOf('const n = lines.filter(isDiscountable).length;\n', 'const n = lines.length;\n'), kept: [], beforeTexts: [content] };
    expect(namesToLookUp(input)).toEqual({ removed: [], restored: [] });
  });
});
