/**
 * What the offline analyst says, built from the evidence rather than copied from a doc: the
 * exception and its message, the top in-app frame, the last commit that touched that code, and
 * the nearest documented family as a "similar to" line. Its evidence is only this incident's
 * lines, and its contributing factors only commits that touched the suspect files.
 */
import type { RecentChange, SimilarDoc, SuspectCommit } from '../domain/analysis.js';
import type { ErrorEvent, LogEntry } from '../domain/event.js';
import { eventTrace } from '../domain/event-trace.js';
import { changedByClause } from '../domain/changed-by-clause.js';
import { isFrameFile } from '../domain/frame-file.js';
import type { StackFrame } from '../domain/stack-trace.js';
import { informativeText } from '../domain/informative-text.js';
import { sanitizeUntrusted } from '../domain/untrusted/prepare.js';
import { describeUpstreamFailure, upstreamFailureOf } from '../domain/upstream-failure.js';

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

/** Lines of the failure itself shown before the lines around it: the rest is the same line again. */
const FAMILY_FIRST = 3;

/**
 * The window's lines that belong to this incident: those carrying one of the event's correlation
 * ids (or its session), and those of its own message family. At most eight: the first three lines
 * of the failure (error lines first), then the lines around it that carry its ids — where the clue
 * usually is (`psp answered … decision=declined`) — then the failure's further lines.
 */
export function incidentEvidence(event: ErrorEvent, entries: LogEntry[]): LogEntry[] {
  const ids = [...Object.values(event.correlationIds), ...(event.sessionId ? [event.sessionId] : [])].filter((id) => id.length >= 3);
  const words = familyWords(event.message);
  const family: LogEntry[] = [];
  const around: LogEntry[] = [];
  for (const entry of entries) {
    if (isFamilyLine(entry.message, words)) family.push(entry);
    else if (ids.some((id) => entry.message.includes(id))) around.push(entry);
  }
  const errorsFirst = family
    .map((entry, index) => ({ entry, rank: (isErrorLevel(entry.level) ? 0 : 1) * entries.length + index }))
    .sort((a, b) => a.rank - b.rank)
    .map((r) => r.entry);
  return [...errorsFirst.slice(0, FAMILY_FIRST), ...around, ...errorsFirst.slice(FAMILY_FIRST)].slice(0, MAX_EVIDENCE);
}

/** In-app frames of the event's trace, innermost first. */
export function inAppFrames(event: ErrorEvent): StackFrame[] {
  return eventTrace(event).frames.filter((f) => f.inApp);
}


/** The commits that touched a file of the trace's in-app frames, newest first as given. */
export function suspectChanges(event: ErrorEvent, changes: RecentChange[]): RecentChange[] {
  const frames = inAppFrames(event);
  return changes.filter((c) => c.files.some((file) => frames.some((f) => isFrameFile(f.file, file))));
}

/**
 * Blamed suspect commits first, then other commits that touched a file of the trace; at most 5.
 * None for an upstream failure: the client code that surfaced it is not what changed.
 */
export function contributingFactors(event: ErrorEvent, changes: RecentChange[], suspects: readonly SuspectCommit[] = []): string[] {
  if (upstreamFailureOf(event)) return [];
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

/** A documented family's name: its doc title without the section (`… — Symptom`). */
function familyName(doc: SimilarDoc): string {
  return doc.title.replace(/\s+—\s+[^—]*$/, '');
}

/** The card's three lines hold the cause and where it was thrown: a longer sentence is cut at a clause. */
const CAUSE_CHARS = 160;

/** The first sentence of a doc section's text, as prose on one line, cut at a clause when it is long. */
function firstSentence(text: string): string {
  const flat = sanitizeUntrusted(text.replace(/```[\s\S]*?(?:```|$)/g, ' ')).replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.!?](?:\s|$)/);
  const sentence = end > 0 ? flat.slice(0, end) : flat.replace(/[.!?]$/, '');
  if (sentence.length <= CAUSE_CHARS) return sentence;
  const room = sentence.slice(0, CAUSE_CHARS);
  const clause = Math.max(room.lastIndexOf('; '), room.lastIndexOf(': '), room.lastIndexOf(' — '));
  return clause >= 30 ? room.slice(0, clause) : clip(sentence, CAUSE_CHARS);
}

/**
 * What the documented family says the cause is: its Cause section when the retrieved docs hold it
 * (the same source file as the matched section), else undefined.
 */
export function documentedCause(family: SimilarDoc, docs: readonly SimilarDoc[]): string | undefined {
  const isCause = (d: SimilarDoc) => /—\s*(?:root\s+)?causes?\s*$/i.test(d.title);
  const cause = isCause(family) ? family : docs.find((d) => d.source === family.source && familyName(d) === familyName(family) && isCause(d));
  const text = cause ? firstSentence(cause.excerpt) : '';
  return text === '' ? undefined : text;
}

/**
 * The offline root cause, most telling first: an upstream failure when the error says one (the
 * client code only surfaced it); else the documented cause of the matched family, then what was
 * thrown where and the commit that last changed it, then whose documentation that cause is —
 * "The payment gateway's API v2 nests the authorization in an `authorization` object that is present
 * only for approved payments. TypeError "…" thrown in toAuthorization (…/payment-client.ts:52), code
 * last changed by 9f400e0f "…" (dev, 2026-11-25). Cause as documented for "Payments: …" (similarity
 * 0.55)." Without a documented family the offline analyst can say where, not why: "Undetermined cause, …".
 */
export function offlineRootCause(input: { event: ErrorEvent; family?: SimilarDoc; docs?: readonly SimilarDoc[]; changes: RecentChange[]; suspects?: readonly SuspectCommit[] }): string {
  const { event, family } = input;
  const trace = eventTrace(event);
  const frame = trace.frames.find((f) => f.inApp);
  const what = trace.exceptionType
    ? `${trace.exceptionType}${trace.message ? ` "${clip(informativeText(trace.message), 200)}"` : ''}`
    : `"${clip(informativeText(event.message), 240)}"`;
  const at = frame ? `${frame.fn ? `${clip(frame.fn, 80)} ` : ''}(${clip(frame.file, 160)}${frame.line ? `:${frame.line}` : ''})` : undefined;
  const cause = family ? documentedCause(family, input.docs ?? []) : undefined;
  const named = family ? `"${clip(familyName(family), 120)}" (similarity ${family.similarity.toFixed(2)})` : '';
  const documented = cause ? `Cause as documented for ${named}.` : family ? `Similar to the documented family ${named}.` : '';
  const upstream = upstreamFailureOf(event);
  if (upstream) {
    // The code that logged a refused connection is where it surfaced: no commit of it is the cause.
    const seen = `Seen as ${what} in ${clip(event.service, 80)}${at ? `, surfacing in ${at}` : ''}.`;
    return [`${clip(describeUpstreamFailure(upstream), 300)}.`, cause ? `${cause}.` : '', seen, documented].filter(Boolean).join(' ');
  }
  const where = at ? ` thrown in ${at}` : ` in ${clip(event.service, 80)}`;
  // The blamed commit of the failing line says more than the newest commit to its file.
  const change = input.suspects?.[0] ?? (frame ? input.changes.find((c) => c.files.some((file) => isFrameFile(frame.file, file))) : undefined);
  const changed = change ? changedByClause(change, clip) : '';
  if (family) return `${cause ? `${cause}. ` : ''}${what}${where}${changed}. ${documented}`;
  return `Undetermined cause, no documented family matches: ${what}${where}${changed}.`;
}
