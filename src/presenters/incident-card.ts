import type { ChatMessage } from '../ports/chat.js';
import type { IncidentView } from '../use-cases/incident-commands.js';
import { fitToLimits } from './block-limits.js';
import { detailsButton, presentDecisionButtons, presentFeedbackButtons } from './card-actions.js';
import { presentDocFix } from './card-doc-fix.js';
import { presentDiffPreview } from './card-fix.js';
import { presentProposalCheck } from './card-check.js';
import { checkBlocksApproval } from '../domain/proposal-check.js';
import { presentActionIntents } from './card-intents.js';
import { presentOutcome, presentProgress } from './card-progress.js';
import { presentRoute } from './card-route.js';
import { presentCardRootCause } from './card-analysis.js';
import { presentFields, presentNextStep, presentRateLine, presentTitle } from './card-summary.js';
import { presentSameFailure } from './same-failure-line.js';
import { diffFitsCard, diffStats } from './diff-pages.js';
import { context, escapeMrkdwn, generated, plain, section, untrusted } from './mrkdwn.js';
import { presentIncidentTitle } from './incident-title.js';

export { escapeMrkdwn };

const SEVERITY_ICON: Record<string, string> = { critical: '🔴', error: '🟠', warning: '🟡', info: '🔵', debug: '⚪' };

export interface CardOptions {
  /** False for copies shown outside the channel card (e.g. `/medic status`): no buttons. */
  interactive?: boolean;
}

type Part = { block: Record<string, unknown>; dropRank?: number };

/**
 * The incident card, read at a glance: a header with severity, service and title, a two-column
 * summary (status, events, confidence, suspect), the root cause in two lines, the fix and its diff,
 * and Approve / Reject / View details right under it. Evidence, similar docs, contributing factors,
 * recent changes and the recommendation live in View details; a diff too long for the card is
 * posted whole in the thread. A pure function of the incident, rendered by Slack, the sandbox or
 * the console; every untrusted text goes through the one escaper.
 */
export function presentIncidentCard({ incident, stats, rate, nowMs }: IncidentView, options: CardOptions = {}): ChatMessage {
  const interactive = options.interactive ?? true;
  const icon = SEVERITY_ICON[incident.severity] ?? '⚠️';
  const running = ['new', 'analyzing', 'approved', 'fixing'].includes(incident.state);
  const outcome = presentOutcome(incident);
  // The service is the catalog's when it knows it; the log's own name for it is said as such (the route line).
  const service = incident.route?.known ? incident.route.service : incident.service;
  const parts: Part[] = [
    { block: presentTitle(incident, `${icon} ${incident.severity.toUpperCase()} · ${service}`) },
    { block: presentFields(incident, stats, presentRateLine(incident, stats, rate, nowMs)) },
  ];
  const line = [`Incident \`${generated(incident.id, 100)}\``];
  if (incident.previousIncidentId) line.push(`↩️ recurrence of \`${generated(incident.previousIncidentId, 100)}\``);
  if (incident.mergedInto) line.push(`🔗 merged into \`${generated(incident.mergedInto, 100)}\`: the same family; its events count there`);
  const same = presentSameFailure(incident);
  if (same) line.push(same);
  const earlier = incident.earlierFixes.at(-1);
  if (earlier) line.push(`earlier branch \`${generated(earlier.branch, 120)}\` kept${incident.earlierFixes.length > 1 ? ` (+${incident.earlierFixes.length - 1} more)` : ''}`);
  if (incident.review?.reason && running) line.push(`re-run: ${untrusted(incident.review.reason, 120)}`);
  if (running) line.push(presentProgress(incident));
  const route = presentRoute(incident);
  if (route) line.push(route);
  parts.push({ block: { ...context(line.join(' · ')), block_id: 'medic_context' } });
  for (const block of presentCardRootCause(incident)) parts.push({ block, dropRank: 2 });
  for (const block of presentNextStep(incident)) parts.push({ block, dropRank: 3 });
  if (incident.proposal) for (const block of presentDiffPreview(incident)) parts.push({ block, dropRank: 1 });
  const check = presentProposalCheck(incident);
  if (check) parts.push({ block: check });
  if (outcome) parts.push({ block: section(outcome, 'medic_outcome') });
  if (interactive) {
    const proposal = incident.proposal;
    if (proposal && incident.state === 'awaiting_approval') {
      const value = { incidentId: incident.id, proposalHash: proposal.contentHash };
      const approvable = checkBlocksApproval(proposal, incident.proposalCheck) === undefined;
      // 👍/👎 on the root cause share the decision's row: one row of buttons under the diff.
      const feedback = incident.rca ? (presentFeedbackButtons(incident.id, ['rca']).elements as Record<string, unknown>[]) : [];
      parts.push({ block: presentDecisionButtons(value, { file: proposal.file, lines: diffStats(proposal).lines, wholeOnCard: diffFitsCard(proposal), approvable }, feedback) });
    } else if (!running || incident.rca) {
      // One row: View details and the 👍/👎 feedback (their values name the incident and target only).
      const feedback = incident.rca && !running ? (presentFeedbackButtons(incident.id, incident.fix ? ['rca', 'fix'] : ['rca']).elements as unknown[]) : [];
      parts.push({ block: { type: 'actions', block_id: 'medic_more', elements: [detailsButton(incident.id), ...feedback] } });
    }
  }
  // The documented fix sits right under the decision, so Approve stays in the card's first screen
  // beside the diff it approves.
  for (const block of presentDocFix(incident)) parts.push({ block, dropRank: 2 });
  parts.push(...presentActionIntents(incident, interactive));
  // The fallback text is for notifications and screen readers: no markup there, entities escaped.
  // The record version rides along so the chat adapter never replaces a newer card with this one.
  return { text: plain(`Medic ${incident.severity} incident in ${service}: ${presentIncidentTitle(incident)}`, 300), blocks: fitToLimits(parts), version: incident.version };
}

