/**
 * A proposal is checked before anyone may approve it, with each family's real toolchain: a proposal
 * that does not build is shown with its failed check and its first error lines, and no Approve; one
 * that builds shows its check and keeps Approve. Real git repositories, real compilers, no network.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardOf, createCheckWorld, type CheckWorld } from './check-world.js';

const worlds: CheckWorld[] = [];
afterAll(() => worlds.forEach((w) => w.cleanup()));

async function expectCheckedOnTheCard(world: CheckWorld, file: string, command: string, good: string, bad: string, error: RegExp) {
  const passed = await world.check(file, good, { command });
  expect(passed.result).toMatchObject({ status: 'passed', exitCode: 0, command, contentHash: passed.proposal.contentHash });
  const shown = cardOf(passed.proposal, passed.result);
  expect(shown.checkText).toMatch(/^Check ✓ `.+` \d+(\.\d)? m?s/);
  expect(shown.buttons).toContain('medic_approve');

  const failed = await world.check(file, bad, { command });
  expect(failed.result.status).toBe('failed');
  expect(failed.result.exitCode).not.toBe(0);
  expect(failed.result.output).toMatch(error);
  const card = cardOf(failed.proposal, failed.result);
  expect(card.checkText).toContain('*Check ✗*');
  expect(card.checkText).toContain('not offered for approval');
  expect(card.checkText).toMatch(/```[^`]*```/s);
  expect(card.checkText).toMatch(error);
  expect(card.buttons).not.toContain('medic_approve');
  expect(card.buttons).toContain('medic_reject');
}

describe('the proposal check, per language family', () => {
  it('TypeScript: tsc --noEmit with Medic\'s own compiler', async () => {
    const world = await createCheckWorld({
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext' }, include: ['src'] }),
      'src/total.ts': 'export function total(prices: number[]): number {\n  return prices.reduce((a, b) => a + b, 0);\n}\n',
    });
    worlds.push(world);
    await expectCheckedOnTheCard(world, 'src/total.ts', 'tsc --noEmit -p tsconfig.json',
      'export function total(prices: number[]): number {\n  return prices.reduce((a, b) => a + b, 0) || 0;\n}\n',
      'export function total(prices: number[]): number {\n  return prices.join(",");\n}\n',
      /error TS2322/);
  });

  it('Python: python -m compileall', async () => {
    const world = await createCheckWorld({ 'shop/cart.py': 'def total(prices):\n    return sum(prices)\n' });
    worlds.push(world);
    await expectCheckedOnTheCard(world, 'shop/cart.py', 'python3 -m compileall -q .',
      'def total(prices):\n    return sum(prices or [])\n',
      'def total(prices:\n    return sum(prices)\n',
      /SyntaxError/);
  });

  it('Go: go build ./...', async () => {
    const world = await createCheckWorld({
      'go.mod': 'module example.com/shop\n\ngo 1.19\n',
      'main.go': 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println(total([]int{1, 2}))\n}\n',
      'total.go': 'package main\n\nfunc total(prices []int) int {\n\tsum := 0\n\tfor _, p := range prices {\n\t\tsum += p\n\t}\n\treturn sum\n}\n',
    });
    worlds.push(world);
    await expectCheckedOnTheCard(world, 'total.go', 'go build ./...',
      'package main\n\nfunc total(prices []int) int {\n\tsum := 0\n\tfor _, p := range prices {\n\t\tif p > 0 {\n\t\t\tsum += p\n\t\t}\n\t}\n\treturn sum\n}\n',
      'package main\n\nfunc total(prices []int) int {\n\treturn summed\n}\n',
      /undefined: summed/);
  });

  it('Java: javac', async () => {
    const world = await createCheckWorld({
      'src/main/java/shop/Cart.java': 'package shop;\n\npublic class Cart {\n  public static int total(int[] prices) {\n    int sum = 0;\n    for (int p : prices) sum += p;\n    return sum;\n  }\n}\n',
    });
    worlds.push(world);
    await expectCheckedOnTheCard(world, 'src/main/java/shop/Cart.java', 'javac -d "$(mktemp -d)" $(find . -name \'*.java\')',
      'package shop;\n\npublic class Cart {\n  public static int total(int[] prices) {\n    int sum = 0;\n    for (int p : prices) sum += Math.max(p, 0);\n    return sum;\n  }\n}\n',
      'package shop;\n\npublic class Cart {\n  public static int total(int[] prices) {\n    return "none";\n  }\n}\n',
      /error: incompatible types/);
  });
});

describe('the check worktree', () => {
  let world: CheckWorld;
  beforeAll(async () => {
    world = await createCheckWorld({ 'a.txt': 'one\n' });
    worlds.push(world);
  });

  it('holds the proposed content while Medic\'s clone keeps the default branch, and is removed afterwards', async () => {
    const { result } = await world.check('a.txt', 'two\n', { command: 'cat a.txt; git status --porcelain' });
    expect(result.status).toBe('passed');
    expect(result.output).toContain('two');
    expect(result.output).toContain(' M a.txt');
    const { readFileSync, readdirSync } = await import('node:fs');
    expect(readFileSync(`${world.clone}/a.txt`, 'utf8')).toBe('one\n');
    expect(readdirSync(`${world.dir}/worktrees`)).toEqual([]);
  });

  it('removes check worktrees a crashed worker left behind, never a recent one', async () => {
    const { mkdirSync, readdirSync, utimesSync } = await import('node:fs');
    mkdirSync(`${world.dir}/worktrees/medic-check-abandoned`, { recursive: true });
    mkdirSync(`${world.dir}/worktrees/medic-check-running`, { recursive: true });
    const dayAgo = new Date(Date.now() - 86_400_000);
    utimesSync(`${world.dir}/worktrees/medic-check-abandoned`, dayAgo, dayAgo);
    expect((await world.check('a.txt', 'two\n', { command: 'true' })).result.status).toBe('passed');
    expect(readdirSync(`${world.dir}/worktrees`)).toEqual(['medic-check-running']);
  });

  it('does not run on a base that moved: the proposal was made against other content', async () => {
    const proposal = { ...world.propose('a.txt', 'two\n'), baseHash: 'f'.repeat(64) };
    const result = await world.checker({ proposal, settings: { command: 'true', timeoutS: 10, memoryMb: 1_024 }, path: '' });
    expect(result).toMatchObject({ status: 'not-run', reason: expect.stringContaining('changed on main') });
    expect(cardOf(proposal, result).buttons).not.toContain('medic_approve');
  });
});
