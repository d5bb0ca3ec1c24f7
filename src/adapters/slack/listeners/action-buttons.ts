import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { ActionId, StepUpValue, parseValue } from '../../../presenters/card-actions.js';
import { presentStepUpModal } from '../../../presenters/step-up-modal.js';
import type { AuditLog } from '../../../ports/audit.js';
import type { ClickFollowUps } from '../../../ports/click-follow-ups.js';
import type { IncidentCommands } from '../../../use-cases/incident-commands.js';
import type { ActionCommands } from '../../../use-cases/run-action.js';
import { ackThenAnswer } from './follow-up-click.js';
import { clickedMessage, openModal, tellUser } from './listener-deps.js';

/**
 * Run (MUTATING), Request step-up and Confirm step-up (DESTRUCTIVE). Each acks first; who clicked
 * is `body.user.id` (the receiver verified the signature), and the value names only the intent.
 * The use-cases re-resolve the intent and the clicker's authority on the server.
 */
export function registerActionButtons(app: App, commands: IncidentCommands, actions: ActionCommands, audit?: AuditLog, followUps?: ClickFollowUps): void {
  // Run and Request step-up: answered after the ack, by a worker when the web role queues clicks.
  const answered = ackThenAnswer({ commands, actions, ...(audit ? { audit } : {}), ...(followUps ? { followUps } : {}) });
  app.action<BlockAction<ButtonAction>>({ type: 'block_actions', action_id: ActionId.RunAction }, answered);
  app.action<BlockAction<ButtonAction>>({ type: 'block_actions', action_id: ActionId.RequestStepUp }, answered);

  // The modal must open within the trigger's 3 seconds: one Redis read, then views.open.
  app.action<BlockAction<ButtonAction>>({ type: 'block_actions', action_id: ActionId.ConfirmStepUp }, async ({ ack, body, action, client, logger }) => {
    await ack();
    const { channel, ts } = clickedMessage(body);
    const value = parseValue(StepUpValue, action.value);
    const prompt = value && (await actions.stepUpPrompt(value).catch(() => undefined));
    if (!value || !prompt) return tellUser({ client, logger, audit }, channel, body.user.id, 'This step-up is no longer pending.');
    // The confirm button sits in the card's thread: its parent is the card.
    const thread = (body.message as { thread_ts?: unknown } | undefined)?.thread_ts;
    const cardTs = typeof thread === 'string' ? thread : ts;
    const view = presentStepUpModal({ ...value, ...(channel && cardTs ? { card: { channel, ts: cardTs } } : {}) }, prompt);
    if (!(await openModal({ client, logger, audit }, body.trigger_id, body.user.id, view))) {
      await tellUser({ client, logger, audit }, channel, body.user.id, 'Medic could not open the confirmation dialog; click Confirm again.');
    }
  });
}
