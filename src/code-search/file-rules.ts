/**
 * Which repository files code search looks at: source files of the configured languages, matched
 * by the configured globs, minus tests, vendored code, generated code and build output. A file a
 * stack frame names directly is exempt from the exclusions (see search-code.ts).
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
};

export const DEFAULT_LANGUAGES = Object.keys(LANGUAGE_EXTENSIONS);

const EXCLUDED: RegExp[] = [
  // tests
  /(^|\/)(test|tests|__tests__|__mocks__|spec|specs|testdata|fixtures?)\//i,
  /\.(test|spec)\.[cm]?[jt]sx?$/i,
  /(^|\/)test_[^/]*\.py$|_test\.py$|_test\.go$|_spec\.rb$/i,
  /(Test|Tests|IT|Spec)\.(java|kt|cs|scala)$/,
  // vendored
  /(^|\/)(node_modules|vendor|third[_-]party|bower_components|\.yarn)\//i,
  // generated
  /(^|\/)(generated|gen|__generated__)\//i,
  /\.(generated|gen|pb|g)\.\w+$|_pb2(_grpc)?\.py$|\.min\.js$|\.d\.ts$|\.designer\.cs$/i,
  // build output
  /(^|\/)(dist|build|out|target|bin|obj|coverage|\.next|\.nuxt|__pycache__|\.venv|venv)\//i,
];

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
