import type { ChatMessage } from '../ports/chat.js';
import type { IncidentView } from '../use-cases/incident-commands.js';
import { fitToLimits } from './block-limits.js';
import { presentEvidence, presentRecommendation, presentRootCause, presentSimilarDocs } from './card-analysis.js';
import { presentDecisionButtons, presentFeedbackButtons } from './card-actions.js';
import { presentActionIntents } from './card-intents.js';
import { presentDiffPreview } from './card-fix.js';
import { presentOutcome, presentProgress } from './card-progress.js';
import { context, escapeMrkdwn, plain, section, untrusted } from './mrkdwn.js';

export { escapeMrkdwn };

const SEVERITY_ICON: Record<string, string> = { critical: '🔴', error: '🟠', warning: '🟡', info: '🔵', debug: '⚪' };

export interface CardOptions {
  /** False for copies shown outside the channel card (e.g. `/medic status`): no buttons. */
  interactive?: boolean;
}

/**
 * The incident card: a pure function of the incident, rendered by Slack, the sandbox or the
 * console. Every untrusted text is redacted and escaped; the result stays within Block Kit limits.
 */
export function presentIncidentCard({ incident, stats }: IncidentView, options: CardOptions = {}): ChatMessage {
  const interactive = options.interactive ?? true;
  const icon = SEVERITY_ICON[incident.severity] ?? '⚠️';
  const seen = stats ? ` · ${stats.count} event${stats.count === 1 ? '' : 's'} since ${stats.firstSeen.slice(0, 16).replace('T', ' ')}` : '';
  const progress = presentProgress(incident);
  const outcome = presentOutcome(incident);
  const parts: { block: Record<string, unknown>; dropRank?: number }[] = [
    { block: { type: 'header', text: { type: 'plain_text', text: plain(`${icon} ${incident.service} · ${incident.severity.toUpperCase()}`, 150), emoji: true } } },
    { block: section(`*${untrusted(incident.title, 400)}*`, 'medic_title') },
    { block: context(`Incident \`${escapeMrkdwn(incident.id)}\` · ${incident.state.replace('_', ' ')}${seen}`) },
  ];
  if (incident.previousIncidentId) parts.push({ block: context(`↩️ Recurrence of \`${escapeMrkdwn(incident.previousIncidentId)}\``) });
  if (incident.mergedInto) parts.push({ block: context(`🔗 Merged into \`${escapeMrkdwn(incident.mergedInto)}\`: the same family; its events count there`) });
  if (progress) parts.push({ block: context(progress) });
  if (incident.logs?.note) parts.push({ block: context(`Logs: ${untrusted(incident.logs.note, 300)}`), dropRank: 4 });
  for (const block of presentRootCause(incident)) parts.push({ block, dropRank: 1 });
  for (const block of presentEvidence(incident)) parts.push({ block, dropRank: 3 });
  for (const block of presentSimilarDocs(incident)) parts.push({ block, dropRank: 5 });
  for (const block of presentRecommendation(incident)) parts.push({ block, dropRank: 2 });
  parts.push(...presentActionIntents(incident, interactive));
  if (interactive && incident.rca) parts.push({ block: presentFeedbackButtons(incident.id, 'rca') });
  if (incident.proposal) {
    parts.push({ block: { type: 'divider' } });
    for (const block of presentDiffPreview(incident)) parts.push({ block, dropRank: 1 });
  }
  if (incident.proposalNote && incident.state !== 'reported') parts.push({ block: context(untrusted(incident.proposalNote, 400)), dropRank: 4 });
  if (outcome) parts.push({ block: section(outcome, 'medic_outcome') });
  if (interactive && incident.proposal && incident.state === 'awaiting_approval') {
    parts.push({ block: presentDecisionButtons({ incidentId: incident.id, proposalHash: incident.proposal.contentHash }, incident.proposal.file) });
  }
  if (interactive && incident.fix) parts.push({ block: presentFeedbackButtons(incident.id, 'fix') });
  // The fallback text is mrkdwn too (notifications, screen readers): escaped like the rest.
  return { text: untrusted(`Medic ${incident.severity} incident in ${incident.service}: ${incident.title}`, 300), blocks: fitToLimits(parts) };
}
