import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { AuditLog } from '../../../ports/audit.js';
import type { ClickFollowUps } from '../../../ports/click-follow-ups.js';
import { answerClick } from '../../../use-cases/answer-click.js';
import type { IncidentCommands } from '../../../use-cases/incident-commands.js';
import type { ActionCommands } from '../../../use-cases/run-action.js';
import { asMedicError } from '../../../domain/errors.js';
import { afterAck, clickedMessage, tellUser } from './listener-deps.js';

export interface FollowUpDeps {
  commands: IncidentCommands;
  actions?: ActionCommands;
  audit?: AuditLog;
  /** Set in a deployment: the click leaves this event loop for a worker. */
  followUps?: ClickFollowUps;
}

/**
 * A click answered after its ack (Approve, Run, Request step-up, feedback). With `followUps` the
 * web role only verifies (the receiver), records what the signed request proved, and acks: the
 * use-case and the ephemeral run in a worker. The click is queued before the ack, so an ack means
 * the click is kept; if the queue cannot take it, it is answered here as before.
 */
export function ackThenAnswer(deps: FollowUpDeps) {
  return async ({ ack, body, action, client, logger }: SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs): Promise<void> => {
    const { channel } = clickedMessage(body);
    const name = body.user.name ?? body.user.username;
    const click = { actionId: action.action_id, value: action.value ?? '', user: { id: body.user.id, ...(name ? { name } : {}) }, ...(channel ? { channel } : {}), at: Date.now() };
    if (deps.followUps) {
      const queued = await deps.followUps.enqueue(click).then(() => true, (error: unknown) => {
        logger.warn(`Could not queue a click for a worker, answering it here: ${asMedicError(error).message}`);
        return false;
      });
      await ack();
      if (queued) return;
    } else {
      await ack();
    }
    await afterAck();
    const reply = { client, logger, ...(deps.audit ? { audit: deps.audit } : {}) };
    await answerClick({ commands: deps.commands, ...(deps.actions ? { actions: deps.actions } : {}), logger, tell: (to, userId, text) => tellUser(reply, to, userId, text) }, click);
  };
}
