import type { CardRef, ProposedAction } from '../domain/incident.js';
import type { ChatMessage } from '../ports/chat.js';
import { ActionId, StepUpModal, button, type StepUpValue } from './card-actions.js';
import { presentArgs } from './card-intents.js';
import { generated, plain, section, untrusted } from './mrkdwn.js';

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

/** The confirm modal: the elevated approver types the target's name. Modal titles are ≤ 24 characters. */
export function presentStepUpModal(context: StepUpContext, action: { tool: string; target: string }): Record<string, unknown> {
  return {
    type: 'modal',
    callback_id: StepUpModal.callbackId,
    private_metadata: JSON.stringify(context),
    title: { type: 'plain_text', text: 'Confirm step-up' },
    submit: { type: 'plain_text', text: 'Run it' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      { type: 'section', text: { type: 'plain_text', text: plain(`${action.tool} on ${action.target} (incident ${context.incidentId}). This cannot be undone.`, 500) } },
      {
        type: 'input',
        block_id: StepUpModal.blockId,
        label: { type: 'plain_text', text: plain(`Type ${action.target} to confirm`, 150) },
        element: { type: 'plain_text_input', action_id: StepUpModal.actionId, max_length: 200 },
      },
    ],
  };
}
