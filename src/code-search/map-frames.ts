/**
 * Maps stack-frame paths to repository files by path suffix. A deployed service reports
 * `/srv/shop/src/checkout/discounts.ts` (or `/app/dist/checkout/discounts.js`, `C:\src\Shop\Cart.cs`,
 * `com/shop/Cart.java` for a Java class) while the repository holds `src/checkout/discounts.ts`:
 * the two agree on their trailing segments, which is all that is compared.
 */
export interface FrameFileMatch {
  file: string;
  /** How many trailing path segments agree (the file name counts as one). */
  segments: number;
}

// Compiled output keeps the source's name but not its extension or its root directory.
const EXTENSION_FAMILY: Record<string, string> = { ts: 'js', tsx: 'js', mts: 'js', cts: 'js', js: 'js', jsx: 'js', mjs: 'js', cjs: 'js', py: 'py', pyc: 'py' };
const BUILD_ROOTS = new Set(['src', 'dist', 'build', 'lib', 'out', 'es', 'esm', 'cjs']);

function splitName(name: string): { stem: string; family: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return { stem: name.toLowerCase(), family: '' };
  const ext = name.slice(dot + 1).toLowerCase();
  return { stem: name.slice(0, dot).toLowerCase(), family: EXTENSION_FAMILY[ext] ?? ext };
}

export function normalizeFramePath(path: string): string[] {
  return path
    .replace(/\\/g, '/')
    // Bundlers prefix sources: webpack-internal:///(rsc)/./src/x.ts, webpack://app/./src/x.ts.
    .replace(/^webpack(?:-internal)?:\/\/\/?(?:\([^)]*\)\/)?(?:[^/]*\/)?/, '')
    .replace(/^[A-Za-z]:\//, '/')
    // A TS path alias (`@/lib/x.ts`, `~/lib/x.ts`, `#lib/x.ts`) stands for a source root the suffix match finds anyway.
    .replace(/^(?:[@~#]\/|#(?=[\w-]+\/))/, '')
    .split('/')
    .filter((s) => s !== '' && s !== '.');
}

/**
 * A repository path as segments, with dotted directory names split: .NET projects live in
 * folders named for their namespace (`src/Shop.Checkout/Cart.cs` holds `Shop.Checkout.Cart`).
 */
export function repoSegments(file: string): string[] {
  const parts = file.split('/');
  const name = parts.pop() ?? '';
  return [...parts.flatMap((dir) => (dir.includes('.') && !dir.startsWith('.') ? dir.split('.').filter(Boolean) : [dir])), name];
}

/** Files indexed by lower-case file stem, so each frame compares against a handful of paths. */
export function indexFilesByStem(files: readonly string[]): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const file of files) {
    const name = file.slice(file.lastIndexOf('/') + 1);
    const { stem } = splitName(name);
    const list = index.get(stem);
    if (list) list.push(file);
    else index.set(stem, [file]);
  }
  return index;
}

function sharedSuffix(frame: string[], repo: string[]): number {
  const a = splitName(frame[frame.length - 1] ?? '');
  const b = splitName(repo[repo.length - 1] ?? '');
  if (a.stem !== b.stem || a.family !== b.family) return 0;
  let k = 1;
  while (k < frame.length && k < repo.length) {
    const x = frame[frame.length - 1 - k]!.toLowerCase();
    const y = repo[repo.length - 1 - k]!.toLowerCase();
    if (x !== y && !(BUILD_ROOTS.has(x) && BUILD_ROOTS.has(y))) break;
    k++;
  }
  return k;
}

/**
 * The repository files a frame path points at: the longest suffix match, provided one side is
 * used up entirely or at least one directory agrees besides the file name (a bare `index.js`
 * must not claim every `index.ts` in the tree).
 */
export interface MapFrameOptions {
  /** Accept a unique file name alone (Kotlin and odd Java layouts keep classes outside their package directory). */
  loose?: boolean;
  /** The fewest trailing segments that must agree, when the frame's own path says it is a dependency. */
  minSegments?: number;
}

export function mapFramePath(path: string, index: Map<string, string[]>, options: MapFrameOptions = {}): FrameFileMatch[] {
  const frame = normalizeFramePath(path);
  const last = frame[frame.length - 1];
  if (!last) return [];
  const candidates = index.get(splitName(last).stem) ?? [];
  let best: FrameFileMatch[] = [];
  const named = candidates.map((file) => ({ file, k: sharedSuffix(frame, repoSegments(file)) })).filter((c) => c.k >= (options.minSegments ?? 1));
  if (options.loose && named.length === 1 && named[0]!.k === 1) return [{ file: named[0]!.file, segments: 1 }];
  for (const { file, k } of named) {
    const repo = repoSegments(file);
    const accepted = k > 0 && (k === repo.length || k === frame.length || k >= 2);
    if (!accepted) continue;
    if (best.length === 0 || k > best[0]!.segments) best = [{ file, segments: k }];
    else if (k === best[0]!.segments) best.push({ file, segments: k });
  }
  return best;
}

/** `nu-protocol-0.89.0` → `nu-protocol`, `lodash@4.17.21` → `lodash`: an installed package's directory without its version. */
function packageName(segment: string): string {
  return segment.replace(/@[^/]*$/, '').replace(/-v?\d+(?:\.\d+)*(?:[-.+][\w.]*)?$/, '').toLowerCase();
}

/**
 * Among files a frame matches equally well, the ones whose directories name the frame's package:
 * `…/registry/src/…/nu-protocol-0.89.0/src/value.rs` is `crates/nu-protocol/src/value.rs`, not
 * another crate's `src/value.rs`. A JVM or .NET frame's module counts as its package path. The
 * matches stay as they are when no directory, or every one, names it.
 */
export function preferNamed(frame: { file: string; module?: string }, matches: readonly FrameFileMatch[]): FrameFileMatch[] {
  if (matches.length < 2) return [...matches];
  const k = matches[0]!.segments;
  const path = normalizeFramePath(frame.file);
  const names = new Set([...path.slice(0, Math.max(0, path.length - k)), ...(frame.module?.split('.') ?? [])].map(packageName).filter((n) => n.length > 1));
  const named = matches.filter((m) => {
    const dirs = m.file.split('/');
    return dirs.slice(0, Math.max(0, dirs.length - k)).some((d) => names.has(packageName(d)));
  });
  return named.length > 0 ? named : [...matches];
}
