/**
 * Which repository files code search looks at: source files of the configured languages, matched
 * by the configured globs, minus vendored code, generated code and build output. Tests and
 * protected files are left out by the candidate filter (candidate-filter.ts); a stack frame never
 * widens any of this.
 */
export const LANGUAGE_EXTENSIONS: Record<string, readonly string[]> = {
  typescript: ['.ts', '.tsx', '.mts', '.cts'],
  javascript: ['.js', '.jsx', '.mjs', '.cjs'],
  python: ['.py'],
  java: ['.java'],
  kotlin: ['.kt', '.kts'],
  scala: ['.scala'],
  go: ['.go'],
  csharp: ['.cs'],
  ruby: ['.rb'],
  php: ['.php'],
  rust: ['.rs'],
};

export const DEFAULT_LANGUAGES = Object.keys(LANGUAGE_EXTENSIONS);

const EXCLUDED: RegExp[] = [
  // vendored
  /(^|\/)(node_modules|vendor|third[_-]party|bower_components|\.yarn)\//i,
  // generated
  /(^|\/)(generated|gen|__generated__)\//i,
  /\.(generated|gen|pb|g)\.\w+$|_pb2(_grpc)?\.py$|\.min\.js$|\.d\.ts$|\.designer\.cs$/i,
  // build output; not bin/, where Node and Python projects keep hand-written entry scripts (the
  // binaries .NET and Go build there carry no source extension, so the extension check drops them)
  /(^|\/)(dist|build|out|target|obj|coverage|\.next|\.nuxt|__pycache__|\.venv|venv)\//i,
];

/** Vendored, generated or built: never the source of a bug, whatever names it. */
export function isExcludedPath(file: string): boolean {
  return EXCLUDED.some((re) => re.test(file));
}

export function extensionsFor(languages: readonly string[]): Set<string> {
  return new Set(languages.flatMap((l) => LANGUAGE_EXTENSIONS[l.toLowerCase()] ?? []));
}

export function hasExtension(file: string, extensions: Set<string>): boolean {
  const dot = file.lastIndexOf('.');
  return dot > file.lastIndexOf('/') && extensions.has(file.slice(dot).toLowerCase());
}

/** `**` any depth, `*` within a segment, `?` one character, `{a,b}` alternatives. */
export function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      out += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') out += '(?:';
    else if (c === '}') out += ')';
    else if (c === ',' && glob.lastIndexOf('{', i) > glob.lastIndexOf('}', i)) out += '|';
    else out += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/** Globs select files; a glob starting with `!` removes them. No include glob means everything. */
export function createGlobFilter(globs: readonly string[]): (file: string) => boolean {
  const include = globs.filter((g) => !g.startsWith('!')).map(globToRegExp);
  const exclude = globs.filter((g) => g.startsWith('!')).map((g) => globToRegExp(g.slice(1)));
  return (file) => (include.length === 0 || include.some((re) => re.test(file))) && !exclude.some((re) => re.test(file));
}

/** True when any glob matches (no glob: nothing matches). */
export function matchesAnyGlob(globs: readonly string[]): (file: string) => boolean {
  const res = globs.map(globToRegExp);
  return (file) => res.some((re) => re.test(file));
}
