/**
 * The plain baseline Medic's ranker is measured against: the trace's frames in the order printed,
 * innermost first (Python prints the innermost last, so its frames are reversed), each mapped to
 * the repository file with the longest matching path suffix; a frame two files match equally well
 * is skipped, and each file counts once. Written here, apart from Medic's own trace readers, so the
 * baseline stays the same while they change.
 */

export interface TraceFrame {
  path: string;
  line: number;
  python: boolean;
}

const JVM = /\bat (?:[\w.@-]+\/)?([\w$.]+)\.[\w$<>-]+\((\w+\.(?:java|kt|kts|scala|groovy)):(\d+)\)/;
const FRAMES: RegExp[] = [
  /\bin (\S.*?\.cs):line (\d+)/,
  /#\d+ (\S+\.php)\((\d+)\)/,
  /\bin (\S+\.php)(?: on line |:)(\d+)/,
  /panicked at (?:'.*?', )?([^\s']+\.rs):(\d+)/,
  /(?:^|[\s(])((?:[A-Za-z]:)?[^\s():'"`]*\.(?:rb|rake|go|rs|js|mjs|cjs|jsx|ts|tsx|mts|cts|vue|svelte|py|php|ex|exs)):(\d+)/,
];
const PYTHON = /File "([^"]+)", line (\d+)/;

export function readFrames(trace: string): TraceFrame[] {
  const frames: TraceFrame[] = [];
  for (const text of trace.split(/\r?\n/)) {
    const python = PYTHON.exec(text);
    if (python) {
      frames.push({ path: python[1]!, line: Number(python[2]), python: true });
      continue;
    }
    const jvm = JVM.exec(text);
    if (jvm) {
      const pkg = jvm[1]!.split('.').slice(0, -1).filter((part) => /^[a-z_]/.test(part));
      frames.push({ path: [...pkg, jvm[2]!].join('/'), line: Number(jvm[3]), python: false });
      continue;
    }
    for (const pattern of FRAMES) {
      const m = pattern.exec(text);
      if (m) {
        frames.push({ path: m[1]!, line: Number(m[2]), python: false });
        break;
      }
    }
  }
  const python = frames.filter((f) => f.python).reverse();
  return python.length > 0 ? [...python, ...frames.filter((f) => !f.python)] : frames;
}

function segments(path: string): string[] {
  return path
    .replace(/\\/g, '/')
    .replace(/^(?:file|webpack):\/+/, '')
    .replace(/^[A-Za-z]:\//, '')
    .split('/')
    .filter((s) => s !== '' && s !== '.');
}

export interface FileIndex {
  byName: Map<string, string[][]>;
}

export function indexFiles(files: readonly string[]): FileIndex {
  const byName = new Map<string, string[][]>();
  for (const file of files) {
    const parts = file.split('/');
    const name = parts[parts.length - 1]!;
    byName.set(name, [...(byName.get(name) ?? []), parts]);
  }
  return { byName };
}

/** The one file with the longest path suffix in common with `path`, or undefined (none, or a tie). */
export function mapPath(path: string, index: FileIndex): string | undefined {
  const wanted = segments(path);
  const candidates = index.byName.get(wanted[wanted.length - 1] ?? '') ?? [];
  let best: string[][] = [];
  let bestLength = 0;
  for (const parts of candidates) {
    let n = 0;
    while (n < parts.length && n < wanted.length && parts[parts.length - 1 - n] === wanted[wanted.length - 1 - n]) n++;
    if (n > bestLength) [best, bestLength] = [[parts], n];
    else if (n === bestLength) best.push(parts);
  }
  return best.length === 1 ? best[0]!.join('/') : undefined;
}

/** In-project frames in trace order, innermost first: the files, and the line of each file's first frame. */
export function traceOrder(trace: string, files: readonly string[]): { file: string; line: number }[] {
  const index = indexFiles(files);
  const out: { file: string; line: number }[] = [];
  for (const frame of readFrames(trace)) {
    const file = mapPath(frame.path, index);
    if (file && !out.some((f) => f.file === file)) out.push({ file, line: frame.line });
  }
  return out;
}
