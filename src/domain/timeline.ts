import type { AuditEvent } from './audit.js';
import { canonicalJson, sha256 } from './hash.js';

/**
 * An incident's timeline, read from its audit stream alone. Pure.
 *
 * Every entry cites the one audit record it came from (its `at`, `action` and `ref`, a hash of the
 * record), so a timeline can be checked against the trail and never says anything the trail does
 * not. A time an entry shows that is not the record's own (the first event's log time, a merge's
 * time on the code host) is a field of that record's details, written when it was known; a record
 * without it gives no entry rather than a guessed time.
 */
export type TimelineKind =
  | 'first-event'
  | 'card'
  | 'analysis-started'
  | 'analysis'
  | 'recommendation'
  | 'diagnostics'
  | 'proposal'
  | 'analysis-posted'
  | 'decision'
  | 'rerun'
  | 'action'
  | 'push'
  | 'pull-request'
  | 'fix-failed'
  | 'checks'
  | 'merge'
  | 'deploy'
  | 'last-event'
  | 'verified'
  | 'still-failing'
  | 'regressed'
  | 'resolved'
  | 'merged-into'
  | 'absorbed';

export interface TimelineSource {
  at: string;
  action: string;
  /** The record's content hash (see auditRef): stable, and the same for the same record read twice. */
  ref: string;
}

export interface TimelineEntry {
  /** When it happened: the record's time, or a time its details carry (event, merge, deploy). */
  at: string;
  kind: TimelineKind;
  /** A plain sentence. It may hold text from logs, models or people: presenters escape all of it. */
  text: string;
  /** Who did it, when a person did (their display name or id, as the record has it). */
  by?: string;
  /** A link the record carries (the PR's URL). Presenters show it only when it is an https URL. */
  link?: string;
  source: TimelineSource;
}

/** A short, stable reference to one audit record: the first 16 hex characters of its canonical JSON's sha256. */
export function auditRef(record: AuditEvent): string {
  return sha256(canonicalJson(record)).slice(0, 16);
}

/** Actions that resolve an incident; their count numbers its resolutions (each posts one timeline). */
export const RESOLUTION_ACTIONS: readonly string[] = ['incident.resolve', 'incident.verified'];

export function resolutionCount(trail: readonly AuditEvent[]): number {
  return trail.filter((record) => RESOLUTION_ACTIONS.includes(record.action) && record.outcome === 'done').length;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const isTime = (value: unknown): value is string => typeof value === 'string' && Number.isFinite(Date.parse(value));
const minutes = (n: number) => `${n} minute${n === 1 ? '' : 's'}`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function actorName(record: AuditEvent): string {
  return record.actor.name ?? record.actor.id;
}

type Draft = Omit<TimelineEntry, 'source'>;

/** The entries one record gives (most give none or one; a verdict gives the last event and itself). */
function entriesOf(record: AuditEvent, seen: Set<string>): Draft[] {
  const d = record.details ?? {};
  const at = record.at;
  const done = record.outcome === 'done';
  const allowed = record.outcome === 'allowed';
  switch (record.action) {
    case 'step.intake': {
      if (seen.has('first-event') || !isTime(d.firstEventAt)) return [];
      seen.add('first-event');
      const service = str(d.service);
      const first: Draft = { at: d.firstEventAt, kind: 'first-event', text: `First event${service ? ` in ${service}` : ''}${str(d.severity) ? ` (${str(d.severity)})` : ''}` };
      // Without the delivery job, the intake step posts the card itself.
      const channel = str(d.cardChannel);
      return channel ? [first, { at, kind: 'card', text: `Card posted in ${channel}` }] : [first];
    }
    case 'incident.card-posted':
    case 'incident.overflow-card': {
      if (!done) return [];
      const channel = str(d.channel);
      return [{ at, kind: 'card', text: `${record.action === 'incident.overflow-card' ? 'Overflow card' : 'Card'} posted${channel ? ` in ${channel}` : ''}` }];
    }
    case 'incident.analyze':
      return done ? [{ at, kind: 'analysis-started', text: 'Analysis started' }] : [{ at, kind: 'analysis', text: `Analysis failed${record.reason ? `: ${record.reason}` : ''}` }];
    case 'step.rca': {
      const confidence = num(d.confidence);
      const evidence = num(d.evidence);
      const parts = [confidence === undefined ? undefined : `confidence ${Math.round(confidence * 100)}%`, evidence === undefined ? undefined : `${plural(evidence, 'evidence line')} cited`].filter(Boolean);
      return [{ at, kind: 'analysis', text: `Root cause analysed${str(d.analyst) ? ` by ${str(d.analyst)}` : ''}${parts.length ? ` (${parts.join(', ')})` : ''}` }];
    }
    case 'step.recommend':
      return str(d.kind) ? [{ at, kind: 'recommendation', text: `Recommended: ${str(d.kind)}` }] : [];
    case 'step.diagnostics': {
      const ran = Array.isArray(d.ran) ? d.ran.filter((r): r is string => typeof r === 'string') : [];
      return ran.length > 0 ? [{ at, kind: 'diagnostics', text: `Diagnostics ran: ${ran.join(', ')}` }] : [];
    }
    case 'step.fix-proposal':
      if (d.proposed === true) return [{ at, kind: 'proposal', text: `Fix proposed${str(d.revertOf) ? ' (a revert)' : ''}${str(d.file) ? ` for ${str(d.file)}` : ''}` }];
      return [{ at, kind: 'proposal', text: `No fix proposed${str(d.note) ? `: ${str(d.note)}` : ''}` }];
    case 'step.proposal-check': {
      const status = str(d.status);
      if (!status) return [];
      const words: Record<string, string> = { passed: 'passed', failed: 'failed', 'timed-out': 'timed out', 'not-run': 'could not run', 'not-checked': 'not checked (no check command)' };
      const ms = num(d.durationMs);
      const how = [str(d.command), ms === undefined ? undefined : `${(ms / 1000).toFixed(1)} s`].filter(Boolean).join(', ');
      return [{ at, kind: 'proposal', text: `Proposal check ${words[status] ?? status}${how ? ` (${how})` : ''}` }];
    }
    case 'step.card': {
      const state = str(d.state);
      if (state === 'awaiting_approval') return [{ at, kind: 'analysis-posted', text: 'Analysis posted; the fix awaits approval' }];
      if (state === 'reported') return [{ at, kind: 'analysis-posted', text: 'Analysis posted (nothing to approve)' }];
      return [];
    }
    case 'incident.approve':
      return allowed ? [{ at, kind: 'decision', text: 'Fix approved', by: actorName(record) }] : [];
    case 'incident.reject':
      return allowed ? [{ at, kind: 'decision', text: `Fix rejected${record.reason ? `: ${record.reason}` : ''}`, by: actorName(record) }] : [];
    case 'incident.rerun':
      return allowed ? [{ at, kind: 'rerun', text: `Analysis re-run requested${record.reason ? `: ${record.reason}` : ''}`, by: actorName(record) }] : [];
    case 'action.run':
      return [{ at, kind: 'action', text: `Action ${str(d.tool) ?? '?'} ${record.outcome === 'done' ? 'ran' : record.outcome === 'failed' ? 'failed' : 'was refused'}`, by: actorName(record) }];
    case 'action.step-up-confirmed':
      return [{ at, kind: 'action', text: `Action ${str(d.tool) ?? '?'} confirmed by step-up`, by: actorName(record) }];
    case 'step.publish': {
      const branch = str(d.branch) ?? '?';
      const commit = str(d.commit);
      return d.pushStatus === 'pushed'
        ? [{ at, kind: 'push', text: `Branch ${branch} pushed${commit ? ` (commit ${commit.slice(0, 12)})` : ''}` }]
        : [{ at, kind: 'push', text: `Branch ${branch} committed but not pushed${str(d.pushStatus) ? ` (${str(d.pushStatus)})` : ''}` }];
    }
    case 'step.pull-request': {
      const url = str(d.pullRequest);
      return url ? [{ at, kind: 'pull-request', text: 'Pull request opened', link: url }] : [];
    }
    case 'fix.finish':
      return record.outcome === 'failed' ? [{ at, kind: 'fix-failed', text: `Fix failed${record.reason ? `: ${record.reason}` : ''}` }] : [];
    case 'fix.checks': {
      const state = str(d.state);
      // A watch looks many times; a state is worth an entry when it is new.
      if (!state || seen.has(`checks:${state}`)) return [];
      seen.add(`checks:${state}`);
      return [{ at, kind: 'checks', text: `Checks ${state === 'success' ? 'passed' : state === 'failure' ? 'failed' : 'running'}` }];
    }
    case 'fix.merged': {
      if (!isTime(d.mergedAt)) return [];
      const pull = num(d.pullNumber);
      const commit = str(d.commit);
      return [{ at: d.mergedAt, kind: 'merge', text: `Fix merged${pull === undefined ? '' : ` (PR #${pull})`}${commit ? ` as ${commit.slice(0, 12)}` : ''}` }];
    }
    case 'fix.deployed':
      return isTime(d.deployedAt) ? [{ at: d.deployedAt, kind: 'deploy', text: `Deployed${str(d.marker) ? ` (${str(d.marker)})` : ''}` }] : [];
    case 'incident.verified': {
      const window = num(d.windowMinutes);
      const before = num(d.beforePerHour);
      return [
        ...lastEvent(d, seen),
        { at, kind: 'verified', text: `Resolved — verified${window === undefined ? '' : `: quiet for ${minutes(window)} after the deploy`}${before === undefined ? '' : ` (${before}/h before)`}` },
      ];
    }
    case 'incident.still-failing': {
      const since = num(d.eventsSince);
      return [{ at, kind: 'still-failing', text: `Still failing${since === undefined ? '' : `: ${plural(since, 'event')} after the deploy`}` }];
    }
    case 'incident.regressed':
      return isTime(d.firstEventAt) ? [{ at: d.firstEventAt, kind: 'regressed', text: `Regressed: the family came back${str(d.afterBranch) ? ` after ${str(d.afterBranch)}` : ''}` }] : [];
    case 'incident.resolve': {
      if (!done) return [];
      const quiet = num(d.quietMinutes);
      return [...lastEvent(d, seen), { at, kind: 'resolved', text: `Resolved — quiet${quiet === undefined ? '' : ` for ${minutes(quiet)}`}` }];
    }
    case 'incident.merged':
      return str(d.into) ? [{ at, kind: 'merged-into', text: `Merged into ${str(d.into)}: its family is the same` }] : [];
    case 'incident.absorbed':
      return str(d.from) ? [{ at, kind: 'absorbed', text: `Absorbed the events of ${str(d.from)}` }] : [];
    default:
      return [];
  }
}

/** The family's last event, from a verdict's or a resolution's `lastSeen` (each resolution shows its own). */
function lastEvent(details: Record<string, unknown>, seen: Set<string>): Draft[] {
  if (!isTime(details.lastSeen)) return [];
  const count = num(details.count);
  const key = `last:${details.lastSeen}`;
  if (seen.has(key)) return [];
  seen.add(key);
  return [{ at: details.lastSeen, kind: 'last-event', text: `Last event${count === undefined ? '' : ` (${plural(count, 'event')} in all)`}` }];
}

/**
 * The timeline of one incident from its audit records (in stream order): the meaningful records
 * as entries, ordered by the time each shows; records of one time keep the stream's order.
 */
export function buildTimeline(trail: readonly AuditEvent[]): TimelineEntry[] {
  const seen = new Set<string>();
  const entries: (TimelineEntry & { order: number })[] = [];
  trail.forEach((record, index) => {
    const source: TimelineSource = { at: record.at, action: record.action, ref: auditRef(record) };
    entriesOf(record, seen).forEach((draft, i) => entries.push({ ...draft, source, order: index * 4 + i }));
  });
  entries.sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.order - b.order);
  return entries.map(({ order: _order, ...entry }) => entry);
}
