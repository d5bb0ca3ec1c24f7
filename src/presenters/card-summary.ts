import type { EventRate } from '../domain/event-rate.js';
import type { Incident, IncidentStats } from '../domain/incident.js';
import { presentSparkline } from './sparkline.js';
import { presentStatusWord } from './status-words.js';
import { eventTrace } from '../domain/event-trace.js';
import { isFrameFile } from '../domain/frame-file.js';
import { upstreamFailureOf, type UpstreamFailure } from '../domain/upstream-failure.js';
import { code, escapeMrkdwn, fields, plain, section, untrusted } from './mrkdwn.js';
import { presentIncidentTitle } from './incident-title.js';

type Block = Record<string, unknown>;

const clock = (iso: string) => iso.slice(11, 16);
const day = (iso: string) => iso.slice(0, 10);

export function presentSeen(stats: IncidentStats | undefined, incident: Incident): string {
  if (!stats) return `1 · at ${clock(incident.createdAt)} UTC`;
  const sameDay = day(stats.firstSeen) === day(stats.lastSeen);
  const span = sameDay && clock(stats.firstSeen) === clock(stats.lastSeen)
    ? `at ${clock(stats.firstSeen)}`
    : sameDay ? `${clock(stats.firstSeen)}–${clock(stats.lastSeen)}` : `${stats.firstSeen.slice(0, 16).replace('T', ' ')} – ${stats.lastSeen.slice(0, 16).replace('T', ' ')}`;
  return `${stats.count} · ${span} UTC`;
}

/**
 * The suspect: for an upstream failure the upstream itself (the code that logged it only surfaced
 * it); else a file of this incident's own stack — the proposal's, blame's suspect, or the best
 * code-search candidate that is one of its frames — and the last commit touching it. A candidate
 * the stack does not name is no suspect: a message's words alone can point anywhere.
 */
export function suspectOf(incident: Incident): { file?: string; commit?: string; upstream?: UpstreamFailure } {
  const upstream = upstreamFailureOf(incident.firstEvent);
  if (upstream) return { upstream };
  const frames = eventTrace(incident.firstEvent).frames;
  const file = incident.proposal?.file ?? incident.suspectCommits?.[0]?.file ?? incident.candidates?.find((c) => frames.some((f) => isFrameFile(f.file, c)));
  // Blame's commit of the failing line, when it is in this file; else the newest commit to the file.
  const blamed = file ? incident.suspectCommits?.find((c) => c.file === file) : undefined;
  const change = blamed ?? (file ? incident.recentChanges?.find((c) => c.files.includes(file)) : undefined);
  return { ...(file ? { file } : {}), ...(change ? { commit: change.sha.slice(0, 7) } : {}) };
}

function suspectText(suspect: ReturnType<typeof suspectOf>): string {
  if (suspect.upstream) return `upstream${suspect.upstream.peer ? ` ${code(suspect.upstream.peer, 80)}` : ''} · ${escapeMrkdwn(suspect.upstream.kind)}`;
  return suspect.file ? `${code(suspect.file, 80)}${suspect.commit ? ` · ${code(suspect.commit, 12)}` : ''}` : '—';
}

function confidenceOf(incident: Incident): string {
  const rca = incident.rca;
  if (!rca) return '—';
  const analyst = incident.provenance.rca?.analyst;
  return `${Math.round(rca.confidence * 100)}%${analyst ? ` · ${analyst === 'offline' ? 'offline' : 'model'}` : ''}`;
}

/**
 * The events' sparkline from the family's first event to `nowMs`, else to the later of its last
 * event and the record's last write: the same record and counts always draw the same line, and a
 * write after the family went quiet (a verdict, the sweep) draws the quiet tail. Undefined without a rate.
 */
export function presentRateLine(incident: Incident, stats: IncidentStats | undefined, rate: EventRate | undefined, nowMs: number | undefined): string | undefined {
  if (!rate) return undefined;
  const first = Date.parse(stats?.firstSeen ?? incident.firstEvent.time);
  const moments = [Date.parse(stats?.lastSeen ?? ''), Date.parse(incident.updatedAt)].filter(Number.isFinite);
  const end = nowMs ?? (moments.length > 0 ? Math.max(...moments) : Number.NaN);
  if (!Number.isFinite(end)) return undefined;
  return presentSparkline(rate, end, Number.isFinite(first) ? first : undefined);
}

/** Status, events (with the rate's sparkline under them, or a quiet span in words after them), confidence and suspect as two columns, the way incident tools lay them out. */
export function presentFields(incident: Incident, stats: IncidentStats | undefined, rateLine?: string): Block {
  return fields([
    `*Status*\n${presentStatusWord(incident)}`,
    // A picture of the rate goes under the count; words alone ("none in 26 h") follow it.
    `*Events*\n${presentSeen(stats, incident)}${rateLine ? `${/[▁▂▃▄▅▆▇█]/.test(rateLine) ? '\n' : ' · '}${rateLine}` : ''}`,
    `*Confidence*\n${confidenceOf(incident)}`,
    `*Suspect*\n${suspectText(suspectOf(incident))}`,
  ], 'medic_fields');
}

/** Between the header's severity and service and the incident's title: surfaces reading a card split there. */
export const TITLE_SEPARATOR = ' — ';

/**
 * The card's header: severity and service, then the title, in Slack's header block — one line on
 * most cards, wrapped on a word when the title is long, cut at the header's 150 characters. Plain
 * text: nothing in a title can format, link or mention.
 */
export function presentTitle(incident: Incident, lead: string): Block {
  return { type: 'header', block_id: 'medic_title', text: { type: 'plain_text', text: plain(`${lead}${TITLE_SEPARATOR}${presentIncidentTitle(incident)}`, 150), emoji: true } };
}

/** When there is nothing to approve, what to do next — one line of the recommendation. */
export function presentNextStep(incident: Incident): Block[] {
  const rec = incident.recommendation;
  if (!rec || incident.proposal) return [];
  return [section(`*Next step* (${rec.kind}, risk ${rec.risk}) ${untrusted(rec.summary.replace(/\s+/g, ' '), 200)}`, 'medic_next')];
}
