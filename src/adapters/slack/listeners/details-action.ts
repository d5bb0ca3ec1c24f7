import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { ActionId, DetailsValue, parseValue } from '../../../presenters/card-actions.js';
import { presentDetailsModal } from '../../../presenters/details-modal.js';
import { afterAck, clickedMessage, openModal, slackCaller, tellUser, type ListenerDeps } from './listener-deps.js';

/**
 * View details: opens a modal with the whole analysis and the whole diff. The trigger id expires
 * three seconds after the click, so the incident is read and the modal opened right after the ack.
 * The read is the clicker's, in the card's channel, so the same read rule as `/medic status` holds.
 */
export function registerDetailsAction(app: App, deps: ListenerDeps): void {
  app.action<BlockAction<ButtonAction>>({ type: 'block_actions', action_id: ActionId.Details }, async ({ ack, body, action, client, logger }) => {
    await ack();
    await afterAck();
    const { channel } = clickedMessage(body);
    const reply = { client, logger, audit: deps.audit };
    const value = parseValue(DetailsValue, action.value);
    const viewer = { caller: slackCaller(body.user), ...(channel ? { channel } : {}) };
    const view = value ? await deps.commands.status(value.incidentId, viewer).catch(() => undefined) : undefined;
    if (!view) return tellUser(reply, channel, body.user.id, 'Medic has no such incident that you can read here. Use `/medic list` for the open ones.');
    if (!(await openModal(reply, body.trigger_id, body.user.id, presentDetailsModal(view)))) {
      await tellUser(reply, channel, body.user.id, 'Medic could not open the details; click View details again.');
    }
  });
}
