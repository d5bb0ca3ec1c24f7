import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { asMedicError } from '../../../domain/errors.js';
import { ActionId, DetailsValue, parseValue } from '../../../presenters/card-actions.js';
import { presentDetailsModal } from '../../../presenters/details-modal.js';
import { afterAck, clickedMessage, tellUser, type ListenerDeps } from './listener-deps.js';

/**
 * View details: opens a modal with the whole analysis and the whole diff. The trigger id expires
 * three seconds after the click, so the incident is read and the modal opened right after the ack.
 */
export function registerDetailsAction(app: App, deps: ListenerDeps): void {
  app.action<BlockAction<ButtonAction>>({ type: 'block_actions', action_id: ActionId.Details }, async ({ ack, body, action, client, logger }) => {
    await ack();
    await afterAck();
    const { channel } = clickedMessage(body);
    const value = parseValue(DetailsValue, action.value);
    const view = value ? await deps.commands.status(value.incidentId).catch(() => undefined) : undefined;
    if (!view) return tellUser(client, logger, channel, body.user.id, 'Medic has no such incident any more. Use `/medic list` for the open ones.');
    try {
      await client.views.open({ trigger_id: body.trigger_id, view: presentDetailsModal(view) as never });
    } catch (error) {
      logger.warn(`views.open failed: ${asMedicError(error).message}`);
      await tellUser(client, logger, channel, body.user.id, 'Medic could not open the details; click View details again.');
    }
  });
}
