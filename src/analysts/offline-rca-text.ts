/**
 * What the offline analyst says, built from the evidence rather than copied from a doc: the
 * exception and its message, the top in-app frame, the last commit that touched that code, and
 * the nearest documented family as a "similar to" line. Its evidence is only this incident's
 * lines, and its contributing factors only commits that touched the suspect files.
 */
import type { RecentChange, SimilarDoc, SuspectCommit } from '../domain/analysis.js';
import type { ErrorEvent, LogEntry } from '../domain/event.js';
import { eventTrace } from '../domain/event-trace.js';
import type { StackFrame } from '../domain/stack-trace.js';
import { sanitizeUntrusted } from '../domain/untrusted/prepare.js';

const MAX_EVIDENCE = 8;

function clip(text: string, max: number): string {
  const flat = sanitizeUntrusted(text).replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function isErrorLevel(level: string): boolean {
  return /^(error|err|fatal|critical|crit|severe|panic|emerg|alert)$/i.test(level.trim());
}

/** The constant words of the event's message: what every line of its family repeats. */
function familyWords(message: string): string[] {
  return message.toLowerCase().split(/[^a-z_]+/).filter((w) => w.length >= 3).slice(0, 24);
}

/**
 * True when `text` holds the family words in order, all but a fifth of them (a value the miner
 * has not yet seen vary, like `Infinity` against `NaN`). indexOf from the last hit: linear.
 */
function isFamilyLine(text: string, words: string[]): boolean {
  if (words.length < 2) return false;
  const lower = text.toLowerCase();
  let at = 0;
  let found = 0;
  for (const word of words) {
    const hit = lower.indexOf(word, at);
    if (hit < 0) continue;
    found++;
    at = hit + word.length;
  }
  return found >= Math.max(2, Math.ceil(words.length * 0.8));
}

/**
 * The window's lines that belong to this incident: those carrying one of the event's correlation
 * ids (or its session), and those of its own message family. Error lines first, at most eight.
 */
export function incidentEvidence(event: ErrorEvent, entries: LogEntry[]): LogEntry[] {
  const ids = [...Object.values(event.correlationIds), ...(event.sessionId ? [event.sessionId] : [])].filter((id) => id.length >= 3);
  const words = familyWords(event.message);
  const mine = entries.filter((entry) => ids.some((id) => entry.message.includes(id)) || isFamilyLine(entry.message, words));
  return mine
    .map((entry, index) => ({ entry, rank: (isErrorLevel(entry.level) ? 0 : 1) * entries.length + index }))
    .sort((a, b) => a.rank - b.rank)
    .slice(0, MAX_EVIDENCE)
    .map((r) => r.entry);
}

/** In-app frames of the event's trace, innermost first. */
export function inAppFrames(event: ErrorEvent): StackFrame[] {
  return eventTrace(event).frames.filter((f) => f.inApp);
}

/** A frame path (`/srv/shop/src/a.ts`) names a repository file (`src/a.ts`) when one ends the other. */
function sameFile(framePath: string, repoPath: string): boolean {
  const a = framePath.replace(/\\/g, '/');
  const b = repoPath.replace(/\\/g, '/');
  return a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
}

/** The commits that touched a file of the trace's in-app frames, newest first as given. */
export function suspectChanges(event: ErrorEvent, changes: RecentChange[]): RecentChange[] {
  const frames = inAppFrames(event);
  return changes.filter((c) => c.files.some((file) => frames.some((f) => sameFile(f.file, file))));
}

/** Blamed suspect commits first, then other commits that touched a file of the trace; at most 5. */
export function contributingFactors(event: ErrorEvent, changes: RecentChange[], suspects: readonly SuspectCommit[] = []): string[] {
  const blamed = suspects.slice(0, 2);
  const named = new Set(blamed.map((s) => s.sha));
  return [
    ...blamed.map((s) => clip(`Suspect commit ${s.sha.slice(0, 8)} by ${s.author}, ${s.ageDays} day(s) before the error, last changed ${s.file}:${s.line}: ${s.subject}`, 300)),
    ...suspectChanges(event, changes)
      .filter((c) => !named.has(c.sha))
      .slice(0, 3)
      .map((c) => clip(`Commit ${c.sha.slice(0, 8)} by ${c.author} (${c.date.slice(0, 10)}) changed ${c.files.slice(0, 3).join(', ')}: ${c.subject}`, 300)),
  ].slice(0, 5);
}

/**
 * One or two sentences: "RangeError "Invalid discount per item: Infinity" thrown in spreadDiscount
 * (src/checkout/discounts.ts:44), last changed by 1a2b3c4d "…" (dev, 2026-11-28). Similar to the
 * documented family "…" (similarity 0.82)."
 */
export function offlineRootCause(input: { event: ErrorEvent; family?: SimilarDoc; changes: RecentChange[]; suspects?: readonly SuspectCommit[] }): string {
  const { event, family } = input;
  const trace = eventTrace(event);
  const frame = trace.frames.find((f) => f.inApp);
  const what = trace.exceptionType
    ? `${trace.exceptionType}${trace.message ? ` "${clip(trace.message, 200)}"` : ''}`
    : `"${clip(event.message, 240)}"`;
  const where = frame ? ` thrown in ${frame.fn ? `${clip(frame.fn, 80)} ` : ''}(${clip(frame.file, 160)}${frame.line ? `:${frame.line}` : ''})` : ` in ${clip(event.service, 80)}`;
  // The blamed commit of the failing line says more than the newest commit to its file.
  const change = input.suspects?.[0] ?? (frame ? input.changes.find((c) => c.files.some((file) => sameFile(frame.file, file))) : undefined);
  const changed = change ? `, code last changed by ${change.sha.slice(0, 8)} "${clip(change.subject, 120)}" (${clip(change.author, 60)}, ${change.date.slice(0, 10)})` : '';
  const similar = family ? ` Similar to the documented family "${clip(family.title, 120)}" (similarity ${family.similarity.toFixed(2)}).` : '';
  // Without a documented family the offline analyst can say where, not why.
  const lead = family ? '' : 'Undetermined cause, no documented family matches: ';
  return `${lead}${what}${where}${changed}.${similar}`;
}
