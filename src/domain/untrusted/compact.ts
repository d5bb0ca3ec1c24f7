/**
 * Compaction: an error storm repeats the same line hundreds of times. Lines that differ only in
 * numbers, hex and ids collapse into their first occurrence (with a count) and their last; each
 * line is capped; and the section is cut to a token budget, keeping the most relevant lines.
 */
import { estimateTokens } from './tokens.js';

export interface UntrustedLine {
  id: string;
  text: string;
  /** Higher survives the budget first (e.g. error level, the event's own line). */
  priority?: number;
}

export interface CompactOptions {
  maxLineChars: number;
  maxTokens: number;
  /** Index of the line the analysis centres on; nearer lines win ties. Defaults to the middle. */
  focus?: number;
}

export interface CompactResult {
  text: string;
  /** Ids printed in `text`: the only ones the model may cite. */
  shownIds: string[];
  collapsedLines: number;
  omittedLines: number;
  tokens: number;
}

interface Group {
  first: number;
  last: number;
  count: number;
  priority: number;
}

function similarityKey(text: string): string {
  // Any word carrying a digit is a variable (ids, counts, hex, timestamps): mask it whole.
  // Split-then-test stays linear where a single regex would backtrack on long digit-free words.
  return text
    .split(/([\s=:,;()[\]{}"']+)/)
    .map((piece) => (/\d/.test(piece) ? '#' : piece))
    .join('')
    .trim();
}

function capLine(text: string, max: number): string {
  const flat = text.replace(/\r?\n/g, ' ⏎ ');
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 12))}…[+${flat.length - max + 12}]`;
}

function renderGroup(lines: UntrustedLine[], group: Group, maxLineChars: number): { text: string; ids: string[] } {
  const first = lines[group.first] as UntrustedLine;
  const text = capLine(first.text, maxLineChars);
  if (group.count === 1) return { text: `${first.id} ${text}`, ids: [first.id] };
  const last = lines[group.last] as UntrustedLine;
  return {
    text: `${first.id} ${text} [repeated ${group.count}× in total]\n${last.id} (last repeat of ${first.id})`,
    ids: [first.id, last.id],
  };
}

export function compactLines(lines: UntrustedLine[], options: CompactOptions): CompactResult {
  const byKey = new Map<string, Group>();
  lines.forEach((line, index) => {
    const key = similarityKey(line.text);
    const group = byKey.get(key);
    if (group) {
      group.last = index;
      group.count += 1;
      group.priority = Math.max(group.priority, line.priority ?? 0);
    } else byKey.set(key, { first: index, last: index, count: 1, priority: line.priority ?? 0 });
  });
  const groups = [...byKey.values()];
  const rendered = new Map(groups.map((g) => [g, renderGroup(lines, g, options.maxLineChars)]));
  const focus = options.focus ?? Math.floor(lines.length / 2);
  const ranked = [...groups].sort((a, b) => b.priority - a.priority || Math.abs(a.first - focus) - Math.abs(b.first - focus));

  let budget = options.maxTokens;
  const kept: Group[] = [];
  for (const group of ranked) {
    const cost = estimateTokens((rendered.get(group)?.text ?? '') + '\n');
    if (cost > budget) continue;
    kept.push(group);
    budget -= cost;
  }
  // Omission markers cost tokens too; drop the least relevant kept lines until the whole fits.
  let section = renderSection(groups, new Set(kept), rendered);
  while (estimateTokens(section.text) > options.maxTokens && kept.length > 0) {
    kept.pop();
    section = renderSection(groups, new Set(kept), rendered);
  }
  const { text, shownIds } = section;
  const keptLines = kept.reduce((sum, g) => sum + g.count, 0);
  return {
    text,
    shownIds,
    collapsedLines: kept.reduce((sum, g) => sum + Math.max(0, g.count - 2), 0),
    omittedLines: lines.length - keptLines,
    tokens: estimateTokens(text),
  };
}

function renderSection(groups: Group[], kept: Set<Group>, rendered: Map<Group, { text: string; ids: string[] }>): { text: string; shownIds: string[] } {
  const out: string[] = [];
  const shownIds: string[] = [];
  let omitted = 0;
  for (const group of groups) {
    if (!kept.has(group)) {
      omitted += group.count;
      continue;
    }
    if (omitted > 0) out.push(`[… ${omitted} line(s) omitted to fit the budget …]`);
    omitted = 0;
    const { text, ids } = rendered.get(group) ?? { text: '', ids: [] };
    out.push(text);
    shownIds.push(...ids);
  }
  if (omitted > 0) out.push(`[… ${omitted} line(s) omitted to fit the budget …]`);
  return { text: out.join('\n'), shownIds };
}
