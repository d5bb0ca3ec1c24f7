import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { asMedicError } from '../../../domain/errors.js';
import type { AuditLog } from '../../../ports/audit.js';
import { parseValue } from '../../../presenters/card-actions.js';
import { OpenIncidentActionId, OpenIncidentValue } from '../../../presenters/overflow-card.js';
import type { GroupingCommands } from '../../../use-cases/grouping-commands.js';
import { afterAck, clickedMessage, tellUser } from './listener-deps.js';


const INVALID = 'This button is no longer valid. Use `/medic status <incident>` for the current card.';

/**
 * Open incident on the overflow card. Acks first (Slack's 3 seconds); who clicked is `body.user.id`
 * from the verified request, the value only names the overflow incident and the family.
 */
export function registerOpenIncidentAction(app: App, grouping: GroupingCommands, audit?: AuditLog): void {
  app.action<BlockAction<ButtonAction>>({ type: 'block_actions', action_id: OpenIncidentActionId }, async ({ ack, body, action, client, logger }) => {
    await ack();
    await afterAck();
    const { channel } = clickedMessage(body);
    const value = parseValue(OpenIncidentValue, action.value);
    if (!value) return tellUser({ client, logger, audit }, channel, body.user.id, INVALID);
    let message: string;
    try {
      message = (await grouping.openFromOverflow({ overflowIncidentId: value.incidentId, fingerprint: value.fingerprint, userId: body.user.id })).message;
    } catch (error) {
      const coded = asMedicError(error);
      logger.error(`Medic could not open the incident: ${coded.code} ${coded.message}`);
      message = `Medic could not open the incident: ${coded.message} (${coded.code})`;
    }
    await tellUser({ client, logger, audit }, channel, body.user.id, message);
  });
}
