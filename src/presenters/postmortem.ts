/**
 * The postmortem draft (`npm run medic -- postmortem <id>`): impact, root cause with its evidence,
 * the fix with its links, the timeline and the open follow-ups, as Markdown for a wiki or a PR.
 * Pure. Every text from logs, the model or people is redacted and made inert: HTML and entities
 * escaped, no links, images, mentions or issue references (inert-git-text.ts), no emphasis or
 * table markup; log lines go in fenced code blocks a line cannot close. The only links are the
 * ones Medic made (the PR, an https URL the code host returned).
 */
import type { AuditEvent } from '../domain/audit.js';
import { affectedUsers } from '../domain/affected-users.js';
import type { ErrorEvent } from '../domain/event.js';
import type { Incident, IncidentStats } from '../domain/incident.js';
import { buildTimeline, type TimelineEntry } from '../domain/timeline.js';
import { revealInvisible } from '../domain/untrusted/invisible.js';
import { inertGitText } from '../domain/untrusted/inert-git-text.js';
import { redactSecrets } from '../domain/untrusted/redact.js';
import { isAwaitingVerification } from '../domain/verification.js';
import { presentIncidentTitle } from './incident-title.js';
import { safeLink, timelineTime } from './timeline-message.js';

export interface PostmortemInput {
  incident: Incident;
  stats?: IncidentStats;
  /** The incident's audit records, in stream order: the timeline is built from them alone. */
  trail: readonly AuditEvent[];
  /** The events the store keeps as samples (for who was affected). */
  samples: readonly ErrorEvent[];
  /** When the draft is written. */
  generatedAt: string;
}

/** Untrusted text, inline: one line, redacted, inert, its Markdown punctuation escaped. */
export function mdText(text: string, max = 500): string {
  const clipped = redactSecrets(revealInvisible(text)).replace(/\s*\n\s*/g, ' ').slice(0, max);
  const escaped = clipped
    .replace(/[&<>]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&amp;'))
    .replace(/[\\`*_{}[\]|~]/g, (c) => `\\${c}`);
  return inertGitText(escaped).replace(/\bwww\./gi, (w) => `${w.slice(0, 3)}\u200b.`) + (text.length > max ? '…' : '');
}

/** Untrusted lines in a fenced block: a fence longer than any backtick run inside, so no line closes it. */
export function mdFence(text: string, max = 4_000): string {
  const body = redactSecrets(revealInvisible(text)).slice(0, max);
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${body}\n${fence}`;
}

/** A name Medic made or checked (an id, a branch, a file path) in a code span. */
function mdCode(text: string): string {
  const clean = redactSecrets(revealInvisible(text)).replace(/\n/g, ' ').slice(0, 300);
  const longest = Math.max(0, ...[...clean.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${longest > 0 ? ' ' : ''}${clean}${longest > 0 ? ' ' : ''}${ticks}`;
}

function duration(fromIso: string, toIso: string): string | undefined {
  const ms = Date.parse(toIso) - Date.parse(fromIso);
  if (!Number.isFinite(ms) || ms < 0) return undefined;
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'under a minute';
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${minutes % 60} min`;
}

function impact(input: PostmortemInput): string[] {
  const { incident, stats } = input;
  const first = stats?.firstSeen ?? incident.firstEvent.time;
  const last = stats?.lastSeen ?? incident.firstEvent.time;
  const services = [incident.route?.service ?? incident.service, ...incident.sameFailures.map((s) => s.service), ...(incident.sameFailureAs ? [incident.sameFailureAs.service] : [])];
  const users = affectedUsers(input.samples);
  const lasted = duration(first, last);
  return [
    '## Impact',
    '',
    `- **Events:** ${stats?.count ?? 1} (first ${timelineTime(first)}, last ${timelineTime(last)})`,
    `- **Duration:** ${lasted ?? 'unknown'} from the first event to the last`,
    `- **Services:** ${[...new Set(services)].map(mdCode).join(', ')}`,
    `- **Severity:** ${incident.severity}`,
    users
      ? `- **Affected users:** ${users.distinct} distinct ${mdCode(users.field)} value${users.distinct === 1 ? '' : 's'} among the ${users.sampled} sampled event${users.sampled === 1 ? '' : 's'} (${users.carrying} carried the field)`
      : '- **Affected users:** not known — no sampled event carries a user field',
  ];
}

function evidenceOf(incident: Incident, id: string): string | undefined {
  const entry = incident.logs?.entries.find((e) => e.id === id);
  if (entry) return `${entry.id} ${entry.time} ${entry.level} [${entry.service}] ${entry.message}`;
  const doc = incident.similarDocs?.find((d) => d.id === id);
  if (doc) return `${doc.id} (document "${doc.title}", ${doc.source}): ${doc.excerpt.slice(0, 400)}`;
  return undefined;
}

function rootCause(incident: Incident): string[] {
  const rca = incident.rca;
  if (!rca) return ['## Root cause', '', incident.error ? `No root cause: the analysis did not finish (${mdText(incident.error, 300)}).` : 'No root cause was analysed.'];
  const analyst = incident.provenance.rca?.analyst;
  const cited = rca.evidenceIds.map((id) => evidenceOf(incident, id) ?? `${id} (no longer in the incident's evidence)`);
  return [
    '## Root cause',
    '',
    `${mdText(rca.rootCause, 2_000)}`,
    '',
    `Confidence ${Math.round(rca.confidence * 100)}%${analyst ? `, analysed by ${mdText(analyst, 80)}` : ''}. Model-assisted: check it against the evidence.`,
    ...(rca.summary ? ['', `**Summary:** ${mdText(rca.summary, 1_000)}`] : []),
    ...(rca.contributingFactors.length > 0 ? ['', '**Contributing factors:**', ...rca.contributingFactors.map((f) => `- ${mdText(f, 500)}`)] : []),
    '',
    cited.length > 0 ? `**Evidence** (${cited.length} cited):` : '**Evidence:** none cited — the confidence is capped for that.',
    ...(cited.length > 0 ? ['', mdFence(cited.join('\n'))] : []),
  ];
}

function fixSection(incident: Incident): string[] {
  const out = ['## The fix', ''];
  const proposal = incident.proposal;
  if (proposal) {
    out.push(`- **Change:** ${mdCode(proposal.file)}${proposal.revertOf ? ` — reverts ${mdCode(proposal.revertOf.sha.slice(0, 12))} (${mdText(proposal.revertOf.subject, 200)})` : ''}`);
    out.push(`- **Why:** ${mdText(proposal.explanation, 1_000)}`);
  } else out.push(`- No fix was proposed${incident.proposalNote ? `: ${mdText(incident.proposalNote, 500)}` : '.'}`);
  const decision = incident.decision;
  if (decision) out.push(`- **Decision:** ${decision.verdict} by ${mdText(decision.actor.name ?? decision.actor.id, 80)} at ${timelineTime(decision.at)}${decision.reason ? ` — ${mdText(decision.reason, 500)}` : ''}`);
  const fix = incident.fix;
  if (fix) {
    out.push(`- **Branch:** ${mdCode(fix.branch)} at commit ${mdCode(fix.commit.slice(0, 12))} (${fix.pushStatus})`);
    const url = safeLink(fix.pullRequest?.url);
    if (fix.pullRequest) out.push(`- **Pull request:** ${url ? `[#${fix.pullRequest.number}](${url})` : `#\u200b${fix.pullRequest.number}`}`);
    if (fix.checks) out.push(`- **Checks:** ${fix.checks}`);
  }
  for (const earlier of incident.earlierFixes) out.push(`- Earlier round: branch ${mdCode(earlier.branch)}${safeLink(earlier.pullRequest?.url) ? ` ([#${earlier.pullRequest!.number}](${safeLink(earlier.pullRequest?.url)!}))` : ''}`);
  const v = incident.verification;
  if (v) {
    const parts = [`**Verification:** ${v.status.replace(/_/g, ' ')}`];
    if (v.mergedAt) parts.push(`merged ${timelineTime(v.mergedAt)}${v.mergeCommit ? ` as ${mdCode(v.mergeCommit.slice(0, 12))}` : ''}`);
    if (v.deployedAt) parts.push(`deployed ${timelineTime(v.deployedAt)}${v.deployMarker ? ` (${mdText(v.deployMarker, 200)})` : ''}`);
    parts.push(`window ${v.windowMinutes} min`);
    if (v.eventsSince !== undefined) parts.push(`${v.eventsSince} event${v.eventsSince === 1 ? '' : 's'} after the deploy`);
    out.push(`- ${parts.join(' · ')}`);
  }
  return out;
}

function timelineSection(entries: readonly TimelineEntry[]): string[] {
  if (entries.length === 0) return ['## Timeline', '', 'The audit trail holds no step of this incident.'];
  return [
    '## Timeline',
    '',
    'Every line is one audit record (its action and reference in brackets; `npm run medic -- audit` lists them).',
    '',
    ...entries.map((e) => {
      const link = safeLink(e.link);
      return `- ${timelineTime(e.at)} — ${mdText(e.text, 400)}${link ? ` ([link](${link}))` : ''}${e.by ? ` — by ${mdText(e.by, 80)}` : ''} <sub>[${e.source.action} ${e.source.ref}]</sub>`;
    }),
  ];
}

/** What is left to do: actions not run, a verdict still open or failing, what the watch could not see. */
export function followUps(incident: Incident, entries: readonly TimelineEntry[]): string[] {
  const out: string[] = [];
  if (incident.state !== 'closed') out.push(`The incident is not resolved (${incident.state.replace(/_/g, ' ')}).`);
  for (const action of incident.diagnostics?.actions ?? []) {
    const status = action.outcome?.status;
    if (status !== 'executed') out.push(`Recommended action not run: ${mdCode(action.tool)} — ${mdText(action.summary, 300)}${status ? ` (${status})` : ''}`);
  }
  if (incident.recommendation && incident.recommendation.kind !== 'fix') {
    out.push(`Recommendation (${incident.recommendation.kind}): ${mdText(incident.recommendation.summary, 500)}`);
    for (const step of incident.recommendation.steps) out.push(`  Step: ${mdText(step, 300)}`);
  }
  const v = incident.verification;
  if (v?.status === 'still_failing') out.push(`Still failing after the fix was deployed${v.eventsSince === undefined ? '' : ` (${v.eventsSince} event${v.eventsSince === 1 ? '' : 's'} since)`}: the fix did not stop the errors.`);
  if (isAwaitingVerification(v)) out.push(`Verification still open: ${v!.status.replace(/_/g, ' ')}.`);
  if (v && (!v.deployMarker || /^merge\b/i.test(v.deployMarker)) && v.status !== 'awaiting_merge') out.push('No deploy marker configured for this service: the merge counted as the deploy. Configure `verify.deploy` in the service catalog.');
  if (incident.fix && !v) out.push('The fix is not watched after its merge: no verification record.');
  if (incident.fix && !incident.fix.pullRequest && incident.fix.pushStatus === 'pushed') out.push(`Branch ${mdCode(incident.fix.branch)} has no pull request yet.`);
  if (incident.fix?.checks === 'failure') out.push("The fix's checks failed.");
  if (incident.state === 'fix_failed') out.push(`The fix failed${incident.error ? `: ${mdText(incident.error, 300)}` : ''}.`);
  for (const regression of incident.regressions) out.push(`Regressed at ${timelineTime(regression.firstEventAt)} after ${mdCode(regression.afterBranch)}.`);
  if (!entries.some((e) => e.kind === 'first-event')) out.push("The audit trail has no record of the first event's time (an incident opened before Medic recorded it).");
  return out;
}

export function presentPostmortem(input: PostmortemInput): string {
  const { incident } = input;
  const entries = buildTimeline(input.trail);
  const follow = followUps(incident, entries);
  const resolution = incident.resolution
    ? incident.resolution.kind === 'verified' ? 'Resolved — verified after the fix.' : `Resolved — quiet for ${incident.resolution.quietMinutes} minutes.`
    : 'Not resolved yet.';
  const sections = [
    [`# Postmortem draft: ${mdText(presentIncidentTitle(incident), 200)}`, '', `Incident ${mdCode(incident.id)} · ${resolution} · draft written by Medic on ${timelineTime(input.generatedAt)} from the incident record and its audit trail; edit before sharing.`],
    impact(input),
    rootCause(incident),
    fixSection(incident),
    timelineSection(entries),
    ['## Open follow-ups', '', ...(follow.length > 0 ? follow.map((f) => (f.startsWith('  ') ? `  - ${f.trim()}` : `- [ ] ${f}`)) : ['- None recorded.'])],
  ];
  return `${sections.map((lines) => lines.join('\n')).join('\n\n')}\n`;
}
