import type { EventRate } from '../domain/event-rate.js';
import type { Incident, IncidentStats } from '../domain/incident.js';
import { presentSparkline } from './sparkline.js';
import { presentStatusWord } from './status-words.js';
import { code, fields, section, untrusted } from './mrkdwn.js';
import { presentIncidentTitle } from './incident-title.js';

type Block = Record<string, unknown>;

/** At 900 px a card line holds about 110 characters: two lines of root cause, no more. */
const ROOT_CAUSE_CHARS = 220;

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

/** The suspect file (the proposal's, else the best code-search candidate) and the last commit touching it. */
export function suspectOf(incident: Incident): { file?: string; commit?: string } {
  const file = incident.proposal?.file ?? incident.candidates?.[0];
  const change = file ? incident.recentChanges?.find((c) => c.files.includes(file)) : undefined;
  return { ...(file ? { file } : {}), ...(change ? { commit: change.sha.slice(0, 7) } : {}) };
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

/** Status, events (with the rate's sparkline under them), confidence and suspect as two columns, the way incident tools lay them out. */
export function presentFields(incident: Incident, stats: IncidentStats | undefined, rateLine?: string): Block {
  const suspect = suspectOf(incident);
  const suspectText = suspect.file ? `${code(suspect.file, 80)}${suspect.commit ? ` · ${code(suspect.commit, 12)}` : ''}` : '—';
  return fields([
    `*Status*\n${presentStatusWord(incident)}`,
    `*Events*\n${presentSeen(stats, incident)}${rateLine ? `\n${rateLine}` : ''}`,
    `*Confidence*\n${confidenceOf(incident)}`,
    `*Suspect*\n${suspectText}`,
  ], 'medic_fields');
}

export function presentTitle(incident: Incident): Block {
  return section(`*${untrusted(presentIncidentTitle(incident), 200)}*`, 'medic_title');
}

/** The root cause in at most two lines; the whole text is in View details. */
export function presentShortRootCause(incident: Incident): Block[] {
  const rca = incident.rca;
  if (!rca) return [];
  return [section(`*Root cause* ${untrusted(rca.rootCause.replace(/\s+/g, ' ').trim(), ROOT_CAUSE_CHARS)}`, 'medic_rca')];
}

/** When there is nothing to approve, what to do next — one line of the recommendation. */
export function presentNextStep(incident: Incident): Block[] {
  const rec = incident.recommendation;
  if (!rec || incident.proposal) return [];
  return [section(`*Next step* (${rec.kind}, risk ${rec.risk}) ${untrusted(rec.summary.replace(/\s+/g, ' '), 200)}`, 'medic_next')];
}
