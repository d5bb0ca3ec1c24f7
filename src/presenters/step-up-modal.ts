import type { CardRef, ProposedAction } from '../domain/incident.js';
import type { ChatMessage } from '../ports/chat.js';
import { ActionId, StepUpModal, button, type StepUpValue } from './card-actions.js';
import { presentArgs } from './card-intents.js';
import { presentInputModal } from './input-modal.js';
import { generated, section, untrusted } from './mrkdwn.js';

/** The thread message asking a second, elevated approver to confirm a DESTRUCTIVE action. */
export function presentStepUpRequest(value: StepUpValue, action: ProposedAction, requestedBy: string): ChatMessage {
  const text = `⛔ <@${generated(requestedBy, 40)}> requests \`${untrusted(action.tool, 100)}\` ${presentArgs(action.args)} on *${untrusted(action.target ?? action.tool, 200)}*. `
    + 'A second, elevated approver must confirm by typing the target\'s name; the request expires in a few minutes.';
  return {
    text: text.slice(0, 3_000),
    blocks: [
      section(text),
      { type: 'actions', block_id: 'medic_step_up', elements: [button(ActionId.ConfirmStepUp, 'Confirm (second approver)', value, { style: 'danger' })] },
    ],
  };
}

/** What the modal carries back (Slack stores private_metadata; the challenge token stays server side). */
export interface StepUpContext extends StepUpValue {
  card?: CardRef;
}

/** The confirm modal: the elevated approver types the target's name. */
export function presentStepUpModal(context: StepUpContext, action: { tool: string; target: string }): Record<string, unknown> {
  return presentInputModal({
    ids: StepUpModal, context, title: 'Confirm step-up', submit: 'Run it',
    text: `${action.tool} on ${action.target} (incident ${context.incidentId}). This cannot be undone.`,
    label: `Type ${action.target} to confirm`,
    input: { max_length: 200 },
  });
}
