/** The gateway's folders read as its duties only if none of them needs another back: no import circles. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = normalize(join(import.meta.dirname, '../../src'));
const IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function graph(): Map<string, string[]> {
  const files = readdirSync(ROOT, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => join(ROOT, f));
  return new Map(files.map((file) => [file, [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => normalize(join(dirname(file), m[1]!)).replace(/\.js$/, '.ts'))]));
}

/** Every import circle, as the list of files on it (depth-first search, colouring nodes). */
function circles(edges: Map<string, string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of edges.get(file) ?? []) {
      if (!edges.has(next)) continue;
      if (state.get(next) === 'open') found.push(path.slice(path.indexOf(next)).map((f) => relative(ROOT, f)));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of edges.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe('the source tree', () => {
  it('has no import circle, in the gateway or anywhere else', () => {
    const edges = graph();
    expect(edges.size).toBeGreaterThan(100);
    expect(circles(edges)).toEqual([]);
  });

  it('finds a circle when there is one (the check itself works)', () => {
    expect(circles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]]))).toEqual([['a', 'b', 'c'].map((f) => relative(ROOT, f))]);
  });
});
