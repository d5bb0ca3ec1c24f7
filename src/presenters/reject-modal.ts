import type { CardRef } from '../domain/incident.js';
import { RejectModal, type DecisionValue } from './card-actions.js';
import { presentInputModal } from './input-modal.js';

/** What the modal carries back to the view_submission listener (Slack stores it, not the browser). */
export interface RejectContext extends DecisionValue {
  card?: CardRef;
}

/** The modal asking for a reject reason. */
export function presentRejectModal(context: RejectContext, title: string): Record<string, unknown> {
  return presentInputModal({
    ids: RejectModal, context, title: 'Reject the fix', submit: 'Reject',
    text: `Incident ${context.incidentId}: ${title}`.slice(0, 300),
    label: 'Why is this fix wrong?',
    input: { multiline: true, min_length: 3, max_length: 1_000 },
  });
}
