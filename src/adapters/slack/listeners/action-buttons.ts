import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { asMedicError } from '../../../domain/errors.js';
import { ActionId, ActionValue, StepUpValue, parseValue } from '../../../presenters/card-actions.js';
import { presentStepUpModal } from '../../../presenters/step-up-modal.js';
import type { AuditLog } from '../../../ports/audit.js';
import type { ActionClick, ActionCommands, ActionReply } from '../../../use-cases/run-action.js';
import { afterAck, clickedMessage, openModal, tellUser } from './listener-deps.js';

const INVALID = 'This button is no longer valid. Use `/medic status <incident>` for the current card.';

async function reply(logger: { error(message: string): void }, what: string, call: () => Promise<ActionReply>): Promise<ActionReply> {
  try {
    return await call();
  } catch (error) {
    const coded = asMedicError(error);
    logger.error(`Medic could not ${what}: ${coded.code} ${coded.message}`);
    return { ok: false, message: `Medic could not ${what}: ${coded.message} (${coded.code})` };
  }
}

/**
 * Run (MUTATING), Request step-up and Confirm step-up (DESTRUCTIVE). Each acks first; who clicked
 * is `body.user.id` (the receiver verified the signature), and the value names only the intent.
 * The use-cases re-resolve the intent and the clicker's authority on the server.
 */
export function registerActionButtons(app: App, actions: ActionCommands, audit?: AuditLog): void {
  // Run and Request step-up differ only in the use-case they call.
  const intentButton = (actionId: string, what: string, call: (input: ActionClick) => Promise<ActionReply>) =>
    app.action<BlockAction<ButtonAction>>({ type: 'block_actions', action_id: actionId }, async ({ ack, body, action, client, logger }) => {
      await ack();
      await afterAck();
      const { channel } = clickedMessage(body);
      const value = parseValue(ActionValue, action.value);
      if (!value) return tellUser({ client, logger, audit }, channel, body.user.id, INVALID);
      const result = await reply(logger, what, () => call({ ...value, userId: body.user.id }));
      await tellUser({ client, logger, audit }, channel, body.user.id, result.message);
    });
  intentButton(ActionId.RunAction, 'run the action', (input) => actions.run(input));
  intentButton(ActionId.RequestStepUp, 'request a step-up', (input) => actions.requestStepUp(input));

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
