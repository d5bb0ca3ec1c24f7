import type { Incident } from '../domain/incident.js';
import type { TimelineEntry } from '../domain/timeline.js';
import type { ChatMessage } from '../ports/chat.js';
import { context, escapeMrkdwn, section, truncate, untrusted } from './mrkdwn.js';
import { presentIncidentTitle } from './incident-title.js';

/** `2026-11-30 09:00:00 UTC`: one clock for every line, whatever the reader's zone. */
export function timelineTime(at: string): string {
  const ms = Date.parse(at);
  return Number.isFinite(ms) ? `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC` : at;
}

/** A link a record carries, shown only when it is a plain https URL (anything else stays text). */
export function safeLink(url: string | undefined): string | undefined {
  return url !== undefined && /^https:\/\/[^\s<>|"'`]+$/.test(url) && url.length <= 500 ? url : undefined;
}

const MAX_LINES = 60;
const SECTION_CHARS = 2_800;

function line(entry: TimelineEntry): string {
  const link = safeLink(entry.link);
  const by = entry.by ? ` — by ${untrusted(entry.by, 80)}` : '';
  return `• \`${timelineTime(entry.at)}\` ${untrusted(entry.text, 300)}${link ? ` <${escapeMrkdwn(link)}|${untrusted(link.replace(/^https:\/\//, ''), 120)}>` : ''}${by}`;
}

/**
 * The incident's timeline as a thread reply or a `/medic timeline` answer: one line per entry,
 * each from an audit record; every text is escaped (entries hold log, model and people's words).
 */
export function presentTimelineMessage(incident: Incident, entries: readonly TimelineEntry[]): ChatMessage {
  const title = `*Timeline of \`${untrusted(incident.id, 100)}\`* · ${untrusted(presentIncidentTitle(incident), 140)}`;
  if (entries.length === 0) {
    const text = `${title}\nNo timeline yet: the audit trail holds no step of this incident.`;
    return { text: `Timeline of ${incident.id}: nothing recorded yet`, blocks: [section(text)] };
  }
  const shown = entries.length > MAX_LINES ? [...entries.slice(0, MAX_LINES - 10), ...entries.slice(-10)] : [...entries];
  const lines = shown.map(line);
  if (entries.length > MAX_LINES) lines.splice(MAX_LINES - 10, 0, `_…${entries.length - MAX_LINES} more in \`npm run medic -- postmortem ${escapeMrkdwn(incident.id)}\`_`);
  const blocks: Record<string, unknown>[] = [];
  let chunk = title;
  for (const text of lines) {
    const next = `${chunk}\n${truncate(text, SECTION_CHARS)}`;
    if (next.length > SECTION_CHARS) {
      blocks.push(section(chunk));
      chunk = truncate(text, SECTION_CHARS);
    } else chunk = next;
  }
  blocks.push(section(chunk));
  blocks.push(context(`Each line is a record of the audit trail · \`npm run medic -- postmortem ${escapeMrkdwn(incident.id)}\` writes the postmortem draft`));
  return { text: `Timeline of ${incident.id}: ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}`, blocks };
}
