/**
 * Just enough SPL for the loopback Splunk to answer Medic's own searches the way Splunk would:
 * `search` with field=value / field="quoted \"value\"" / field=* / bare words, OR binding tighter
 * than the implicit AND (as in Splunk), NOT, parentheses, earliest/latest and
 * _index_earliest/_index_latest, then `| head N` and `| sort [0] [+|-]field`. Any other command is
 * refused the way Splunk refuses a bad search, so an injected `| delete` cannot pass unnoticed.
 */
export type SplunkEventRow = Record<string, string | string[]>;

type Token =
  | { kind: 'word'; text: string; quoted: boolean }
  | { kind: 'term'; field: string; value: string; quoted: boolean }
  | { kind: '(' | ')' | '|' };

type Node =
  | { kind: 'and' | 'or'; of: Node[] }
  | { kind: 'not'; of: Node }
  | { kind: 'term'; field: string; value: string; quoted: boolean }
  | { kind: 'word'; text: string };

export interface ParsedSearch {
  filter: Node;
  terms: { field: string; value: string; quoted: boolean }[];
  commands: { name: string; args: string[] }[];
}

export class SplError extends Error {}

function readQuoted(text: string, start: number): { value: string; end: number } {
  let value = '';
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && i + 1 < text.length) value += text[++i];
    else if (c === '"') return { value, end: i + 1 };
    else value += c;
  }
  throw new SplError('Unbalanced quotes.');
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] ?? '';
    if (/\s/.test(c)) i++;
    else if (c === '(' || c === ')' || c === '|') { tokens.push({ kind: c }); i++; }
    else if (c === '"') { const q = readQuoted(text, i); tokens.push({ kind: 'word', text: q.value, quoted: true }); i = q.end; }
    else {
      let j = i;
      while (j < text.length && !/[\s()|"]/.test(text[j] ?? '')) j++;
      const word = text.slice(i, j);
      const eq = word.indexOf('=');
      if (eq > 0 && eq === word.length - 1 && text[j] === '"') {
        const q = readQuoted(text, j);
        tokens.push({ kind: 'term', field: word.slice(0, eq), value: q.value, quoted: true });
        j = q.end;
      } else if (eq > 0) tokens.push({ kind: 'term', field: word.slice(0, eq), value: word.slice(eq + 1), quoted: false });
      else tokens.push({ kind: 'word', text: word, quoted: false });
      i = j;
    }
  }
  return tokens;
}

function parseExpression(tokens: Token[]): Node {
  let at = 0;
  const isWord = (t: Token | undefined, w: string) => t?.kind === 'word' && !t.quoted && t.text === w;
  const and = (): Node => {
    const of: Node[] = [];
    while (at < tokens.length && tokens[at]?.kind !== ')') {
      if (isWord(tokens[at], 'AND')) { at++; continue; }
      of.push(or());
    }
    return { kind: 'and', of };
  };
  const or = (): Node => {
    const of = [not()];
    while (isWord(tokens[at], 'OR')) { at++; of.push(not()); }
    return of.length === 1 ? (of[0] as Node) : { kind: 'or', of };
  };
  const not = (): Node => {
    if (isWord(tokens[at], 'NOT')) { at++; return { kind: 'not', of: not() }; }
    const t = tokens[at++];
    if (!t) throw new SplError('Missing search term.');
    if (t.kind === '(') {
      const inner = and();
      if (tokens[at++]?.kind !== ')') throw new SplError('Mismatched parentheses.');
      return inner;
    }
    if (t.kind === 'term') return t;
    if (t.kind === 'word') return { kind: 'word', text: t.text };
    throw new SplError('Mismatched parentheses.');
  };
  const node = and();
  if (at < tokens.length) throw new SplError('Mismatched parentheses.');
  return node;
}

function collectTerms(node: Node, out: ParsedSearch['terms']): void {
  if (node.kind === 'term') out.push({ field: node.field, value: node.value, quoted: node.quoted });
  else if (node.kind === 'not') collectTerms(node.of, out);
  else if (node.kind === 'and' || node.kind === 'or') node.of.forEach((n) => collectTerms(n, out));
}

const COMMANDS = new Set(['head', 'sort']);

export function parseSearch(search: string): ParsedSearch {
  const segments: Token[][] = [[]];
  for (const t of tokenize(search)) {
    if (t.kind === '|') segments.push([]);
    else segments[segments.length - 1]?.push(t);
  }
  const [first = [], ...rest] = segments;
  const startsWithSearch = first[0]?.kind === 'word' && !first[0].quoted && first[0].text.toLowerCase() === 'search';
  const filter = parseExpression(startsWithSearch ? first.slice(1) : first);
  const commands = rest.map((segment) => {
    const [name, ...args] = segment.map((t) => (t.kind === 'word' ? t.text : t.kind === 'term' ? `${t.field}=${t.value}` : t.kind));
    if (!name || !COMMANDS.has(name)) throw new SplError(`Unknown search command '${name ?? ''}'.`);
    return { name, args };
  });
  const terms: ParsedSearch['terms'] = [];
  collectTerms(filter, terms);
  return { filter, terms, commands };
}

/** Epoch seconds from an epoch value, `now`, or a relative spec like `-15m`; relative to `nowS`. */
export function resolveTime(spec: string, nowS: number): number {
  if (spec === 'now') return nowS;
  if (/^-?\d+(\.\d+)?$/.test(spec)) return Number(spec);
  const rel = /^([+-])(\d+)(s|m|h|d)$/.exec(spec);
  if (!rel) throw new SplError(`Invalid time "${spec}".`);
  const seconds = Number(rel[2]) * { s: 1, m: 60, h: 3600, d: 86_400 }[rel[3] as 's' | 'm' | 'h' | 'd'];
  return rel[1] === '-' ? nowS - seconds : nowS + seconds;
}

const TIME_FIELDS = new Set(['earliest', 'latest', '_index_earliest', '_index_latest']);

function values(row: SplunkEventRow, field: string): string[] {
  const v = row[field];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

const globs = new Map<string, RegExp>();
function glob(pattern: string): RegExp {
  const cached = globs.get(pattern);
  if (cached) return cached;
  if (globs.size > 10_000) globs.clear();
  const re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 'is');
  globs.set(pattern, re);
  return re;
}

/** `_time` as Splunk holds it internally; a row whose display form is odd still has an index time. */
export function eventSeconds(row: SplunkEventRow): number {
  const text = String(row._time);
  const parsed = /^\d+(\.\d+)?$/.test(text) ? Number(text) : Date.parse(text.replace(' ', 'T').replace(/ ?(UTC|GMT)$/, 'Z')) / 1000;
  return Number.isFinite(parsed) ? parsed : Number(row._indextime);
}

function matches(node: Node, row: SplunkEventRow, nowS: number): boolean {
  switch (node.kind) {
    case 'and': return node.of.every((n) => matches(n, row, nowS));
    case 'or': return node.of.some((n) => matches(n, row, nowS));
    case 'not': return !matches(node.of, row, nowS);
    case 'word': return String(row._raw ?? '').toLowerCase().includes(node.text.toLowerCase());
    case 'term': {
      if (TIME_FIELDS.has(node.field)) {
        const bound = resolveTime(node.value, nowS);
        const at = node.field.startsWith('_index') ? Number(row._indextime) : eventSeconds(row);
        return node.field.endsWith('earliest') ? at >= bound : at < bound;
      }
      const present = values(row, node.field);
      if (node.value === '*') return present.length > 0;
      const re = glob(node.value);
      return present.some((v) => re.test(v));
    }
  }
}

/** Runs a parsed search over rows: filter, Splunk's newest-first event order, then the commands. */
export function runSearch(parsed: ParsedSearch, rows: SplunkEventRow[], range: { earliest?: string; latest?: string; nowS: number }): SplunkEventRow[] {
  const earliest = range.earliest ? resolveTime(range.earliest, range.nowS) : -Infinity;
  const latest = range.latest ? resolveTime(range.latest, range.nowS) : Infinity;
  let out = rows
    .filter((row) => { const t = eventSeconds(row); return t >= earliest && t < latest; })
    .filter((row) => matches(parsed.filter, row, range.nowS))
    .sort((a, b) => eventSeconds(b) - eventSeconds(a));
  for (const command of parsed.commands) {
    if (command.name === 'head') out = out.slice(0, Number(command.args[0] ?? 10));
    if (command.name === 'sort') {
      const spec = command.args.filter((a) => a !== '0').join('');
      const field = spec.replace(/^[+-]/, '');
      const sign = spec.startsWith('-') ? -1 : 1;
      const key = (row: SplunkEventRow) => (field === '_time' ? eventSeconds(row) : Number(values(row, field)[0]));
      out = [...out].sort((a, b) => sign * (key(a) - key(b)));
    }
  }
  return out;
}
