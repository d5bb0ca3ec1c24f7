import type { CardRef } from '../domain/incident.js';
import { RejectModal, type DecisionValue } from './card-actions.js';
import { plain } from './mrkdwn.js';

/** What the modal carries back to the view_submission listener (Slack stores it, not the browser). */
export interface RejectContext extends DecisionValue {
  card?: CardRef;
}

/** The modal asking for a reject reason. Modal titles are ≤ 24 characters. */
export function presentRejectModal(context: RejectContext, title: string): Record<string, unknown> {
  return {
    type: 'modal',
    callback_id: RejectModal.callbackId,
    private_metadata: JSON.stringify(context),
    title: { type: 'plain_text', text: 'Reject the fix' },
    submit: { type: 'plain_text', text: 'Reject' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      { type: 'section', text: { type: 'plain_text', text: plain(`Incident ${context.incidentId}: ${title}`, 300) } },
      {
        type: 'input',
        block_id: RejectModal.blockId,
        label: { type: 'plain_text', text: 'Why is this fix wrong?' },
        element: { type: 'plain_text_input', action_id: RejectModal.actionId, multiline: true, min_length: 3, max_length: 1_000 },
      },
    ],
  };
}
