import type { Incident, ProposedAction } from '../domain/incident.js';
import type { ChatMessage } from '../ports/chat.js';
import { ActionId, button, type ActionValue } from './card-actions.js';
import { context, generated, plain, section, untrusted, untrustedCode } from './mrkdwn.js';

type Block = Record<string, unknown>;

const EFFECT: Record<ProposedAction['effect'], string> = { READ_ONLY: '🔍 READ_ONLY', MUTATING: '✋ MUTATING', DESTRUCTIVE: '⛔ DESTRUCTIVE' };
const STATUS: Record<NonNullable<ProposedAction['outcome']>['status'], string> = {
  running: '⏳ running', executed: '✅ done', proposed: '⏸ waiting', denied: '🚫 refused', failed: '❌ failed',
};

/** `service=orders-api namespace=prod`: values came from the model, so they are escaped like any. */
export function presentArgs(args: Record<string, unknown>): string {
  return untrusted(Object.entries(args).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(' '), 300);
}

function describe(action: ProposedAction): string {
  const head = `${EFFECT[action.effect]} · \`${untrusted(action.tool, 100)}\` ${presentArgs(action.args)}`;
  const capped = action.capped.length ? ` · capped: ${untrusted(action.capped.join(', '), 200)}` : '';
  const outcome = action.outcome
    ? ` · ${STATUS[action.outcome.status]}${action.outcome.by ? ` by <@${generated(action.outcome.by, 40)}>` : ''}${action.outcome.reason ? `: ${untrusted(action.outcome.reason, 200)}` : ''}`
    : action.requires === 'auto' ? ' · runs automatically' : action.requires === 'approval' ? ' · needs an approver' : ' · needs two people (step-up)';
  return `${head}${capped}${outcome}\n_${untrusted(action.summary, 200)}_`;
}

function actionButton(incidentId: string, action: ProposedAction): Block | undefined {
  if (action.outcome && action.outcome.status !== 'denied' && action.outcome.status !== 'failed') return undefined;
  const value: ActionValue = { incidentId, tool: action.tool, argsHash: action.argsHash };
  // Button text is plain_text of at most 75 characters.
  if (action.requires === 'approval') return button(ActionId.RunAction, plain(`Run ${action.tool}`, 75), value, { style: 'primary' });
  if (action.requires === 'step-up') return button(ActionId.RequestStepUp, plain(`Request step-up: ${action.tool}`, 75), value, { style: 'danger' });
  return undefined;
}

/**
 * The proposed operational actions, each with its effect class: READ_ONLY ones show what their
 * automatic run did, MUTATING ones get a Run button, DESTRUCTIVE ones a Request step-up button.
 * Refused proposals appear only as notes. Buttons carry incident, tool and args hash, nothing else.
 */
export function presentActionIntents(incident: Incident, interactive: boolean): { block: Block; dropRank?: number }[] {
  const diagnostics = incident.diagnostics;
  if (!diagnostics || (diagnostics.actions.length === 0 && diagnostics.notes.length === 0)) return [];
  const parts: { block: Block; dropRank?: number }[] = [{ block: section('*Operational actions*', 'medic_actions'), dropRank: 2 }];
  diagnostics.actions.forEach((action, i) => {
    parts.push({ block: section(describe(action), `medic_action_${i}`), dropRank: 2 });
    const element = interactive ? actionButton(incident.id, action) : undefined;
    if (element) parts.push({ block: { type: 'actions', block_id: `medic_action_buttons_${i}`, elements: [element] } });
  });
  if (diagnostics.notes.length > 0) parts.push({ block: context(untrusted(diagnostics.notes.join(' · '), 1_500)), dropRank: 4 });
  return parts;
}

function message(text: string): ChatMessage {
  return { text: text.slice(0, 3_000), blocks: [section(text)] };
}

/** The thread reply with what the automatic diagnostics returned (already redacted and capped). */
export function presentDiagnosticsReply(incidentId: string, ran: readonly ProposedAction[]): ChatMessage {
  const parts = ran.map((a) => `${STATUS[a.outcome?.status ?? 'proposed']} \`${untrusted(a.tool, 100)}\` ${presentArgs(a.args)}${a.outcome?.output ? `\n\`\`\`${untrustedCode(a.outcome.output, 1_200)}\`\`\`` : a.outcome?.reason ? `: ${untrusted(a.outcome.reason, 300)}` : ''}`);
  return message(`🔍 Diagnostics for \`${generated(incidentId, 100)}\`, run automatically (read-only):\n${parts.join('\n')}`.slice(0, 2_900));
}

/** The thread reply after a person ran (or step-up confirmed) an action. */
export function presentActionResult(action: ProposedAction): ChatMessage {
  const outcome = action.outcome;
  const by = outcome?.by ? ` by <@${generated(outcome.by, 40)}>` : '';
  const body = outcome?.output ? `\n\`\`\`${untrustedCode(outcome.output, 1_500)}\`\`\`` : outcome?.reason ? `: ${untrusted(outcome.reason, 300)}` : '';
  return message(`${STATUS[outcome?.status ?? 'proposed']} \`${untrusted(action.tool, 100)}\` ${presentArgs(action.args)}${by}${body}`.slice(0, 2_900));
}
