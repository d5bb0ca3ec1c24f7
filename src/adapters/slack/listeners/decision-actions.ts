import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { ActionId, DecisionValue, parseValue } from '../../../presenters/card-actions.js';
import { presentRejectModal } from '../../../presenters/reject-modal.js';
import { presentIncidentTitle } from '../../../presenters/incident-title.js';
import { asMedicError } from '../../../domain/errors.js';
import { ackThenAnswer } from './follow-up-click.js';
import { afterAck, clickedMessage, openModal, slackCaller, tellUser, type ListenerDeps } from './listener-deps.js';

const INVALID = 'This button is no longer valid. Use `/medic status <incident>` for the current card.';

/**
 * Approve and Reject. Both ack first: Slack shows an error to the clicker if the ack takes over
 * 3 seconds, and the use-case may wait on Redis. Who clicked comes from `body.user.id` (the
 * request's signature was verified by the receiver); the button value only names the proposal.
 */
export function registerDecisionActions(app: App, deps: ListenerDeps): void {
  // The use-case (and the fix job after it) updates the card; the clicker hears the result after the ack.
  app.action<BlockAction<ButtonAction>>({ type: 'block_actions', action_id: ActionId.Approve }, ackThenAnswer(deps));

  app.action<BlockAction<ButtonAction>>({ type: 'block_actions', action_id: ActionId.Reject }, async ({ ack, body, action, client, logger }) => {
    await ack();
    await afterAck();
    const { channel, ts } = clickedMessage(body);
    const value = parseValue(DecisionValue, action.value);
    if (!value) return tellUser({ client, logger, audit: deps.audit }, channel, body.user.id, INVALID);
    // Asking a non-approver for a reason they cannot give would be rude; the use-case re-checks.
    const permissions = await deps.authority.resolve(body.user.id, { incidentId: value.incidentId }).catch((error: unknown) => asMedicError(error));
    if (permissions instanceof Error || !permissions.approver) {
      const text = permissions instanceof Error
        ? `Medic could not check your permissions (${permissions.code}); try again in a moment.`
        : 'Only approvers can reject a fix. Ask someone in the approver group.';
      return tellUser({ client, logger, audit: deps.audit }, channel, body.user.id, text);
    }
    const card = channel && ts ? { channel, ts } : undefined;
    // The title comes from the record, raw: the card's fallback text is already escaped, and
    // escaping it again for the modal would show `&amp;lt;`.
    const viewer = { caller: slackCaller(body.user), ...(channel ? { channel } : {}) };
    const shown = (await deps.commands.status(value.incidentId, viewer).catch(() => undefined))?.incident;
    const title = shown ? presentIncidentTitle(shown) : '';
    const view = presentRejectModal({ ...value, ...(card ? { card } : {}) }, title);
    if (!(await openModal({ client, logger, audit: deps.audit }, body.trigger_id, body.user.id, view))) {
      await tellUser({ client, logger, audit: deps.audit }, channel, body.user.id, 'Medic could not open the reject dialog; click Reject again.');
    }
  });
}
