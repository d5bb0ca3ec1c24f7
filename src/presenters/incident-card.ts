import type { ChatMessage } from '../ports/chat.js';
import type { IncidentView } from '../use-cases/incident-commands.js';

/** Escapes untrusted text for Slack mrkdwn so it can never ping or forge a link. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The incident card: a pure function of the incident, rendered by Slack, the sandbox or the console. */
export function presentIncidentCard({ incident, stats }: IncidentView): ChatMessage {
  const lines = [
    `*${escapeMrkdwn(incident.service)}* · ${incident.severity} · ${incident.state}${stats ? ` · ${stats.count} event(s)` : ''}`,
    `*${escapeMrkdwn(incident.title).slice(0, 300)}*`,
  ];
  if (incident.rca) lines.push(`*Root cause* (${Math.round(incident.rca.confidence * 100)}%): ${escapeMrkdwn(incident.rca.rootCause)}`);
  if (incident.recommendation) lines.push(`*Recommendation*: ${escapeMrkdwn(incident.recommendation.summary)}`);
  if (incident.proposalNote) lines.push(`_${escapeMrkdwn(incident.proposalNote)}_`);
  const blocks: Record<string, unknown>[] = [{ type: 'section', text: { type: 'mrkdwn', text: lines.join('\n').slice(0, 3_000) } }];
  if (incident.proposal) {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `\`\`\`${escapeMrkdwn(incident.proposal.diff).slice(0, 2_800)}\`\`\`` } });
    if (incident.state === 'awaiting_approval') {
      const value = JSON.stringify({ incidentId: incident.id, proposalHash: incident.proposal.contentHash });
      blocks.push({
        type: 'actions',
        elements: [
          { type: 'button', action_id: 'medic_approve', style: 'primary', text: { type: 'plain_text', text: 'Approve' }, value },
          { type: 'button', action_id: 'medic_reject', style: 'danger', text: { type: 'plain_text', text: 'Reject' }, value },
        ],
      });
    }
  }
  return { text: `Medic incident ${incident.id}: ${incident.title}`.slice(0, 3_000), blocks };
}
