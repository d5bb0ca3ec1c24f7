import { plain } from './mrkdwn.js';

export interface InputModal {
  ids: { callbackId: string; blockId: string; actionId: string };
  /** Carried back to the view_submission listener in private_metadata (Slack stores it, not the browser). */
  context: object;
  /** Modal titles and button texts are ≤ 24 characters. */
  title: string;
  submit: string;
  text: string;
  label: string;
  input: { multiline?: boolean; min_length?: number; max_length: number };
}

/** A modal with one explanatory line and one text input: the shape of every Medic modal. */
export function presentInputModal(modal: InputModal): Record<string, unknown> {
  return {
    type: 'modal',
    callback_id: modal.ids.callbackId,
    private_metadata: JSON.stringify(modal.context),
    title: { type: 'plain_text', text: modal.title },
    submit: { type: 'plain_text', text: modal.submit },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      { type: 'section', text: { type: 'plain_text', text: plain(modal.text, 500) } },
      {
        type: 'input',
        block_id: modal.ids.blockId,
        label: { type: 'plain_text', text: plain(modal.label, 150) },
        element: { type: 'plain_text_input', action_id: modal.ids.actionId, ...modal.input },
      },
    ],
  };
}
