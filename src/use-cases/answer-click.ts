import { asMedicError } from '../domain/errors.js';
import { ActionId, ActionValue, DecisionValue, FeedbackValue, parseValue } from '../presenters/card-actions.js';
import type { AuditLog } from '../ports/audit.js';
import type { Chat } from '../ports/chat.js';
import type { ClickFollowUp } from '../ports/click-follow-ups.js';
import type { CommandResult, IncidentCommands } from './incident-commands.js';
import type { ActionCommands, ActionReply } from './run-action.js';

const INVALID = 'This button is no longer valid. Use `/medic status <incident>` for the current card.';
const FEEDBACK = new RegExp(`^${ActionId.Feedback}_(rca|fix)_(up|down)$`);

export interface AnswerClickDeps {
  commands: IncidentCommands;
  /** The card's operational-action use-cases, when the gateway is built. */
  actions?: ActionCommands;
  /** Tells the clicker alone (an ephemeral); never throws. */
  tell(channel: string | undefined, userId: string, text: string): Promise<void>;
  logger: { error(message: string): void };
  /** Claims one replay key (Redis, shared with the web role); false when claimed before by another delivery. */
  claim?: (key: string, deliveryId?: string) => boolean | Promise<boolean>;
}

/** The clicks answered after the ack, wherever that runs (the web role's loop or a worker). */
export function isFollowUpClick(actionId: string): boolean {
  return actionId === ActionId.Approve || actionId === ActionId.RunAction || actionId === ActionId.RequestStepUp || FEEDBACK.test(actionId);
}

async function settle(logger: AnswerClickDeps['logger'], what: string, call: () => Promise<CommandResult | ActionReply>): Promise<CommandResult | ActionReply> {
  try {
    return await call();
  } catch (error) {
    const coded = asMedicError(error);
    logger.error(`Medic could not ${what}: ${coded.code} ${coded.message}`);
    return { ok: false, message: `Medic could not ${what}: ${coded.message} (${coded.code})` };
  }
}

/**
 * Answers one acked click: Approve, Run, Request step-up or a feedback vote, once: a click whose
 * replay keys were claimed before (a Slack retry, a replayed request) is dropped. The button value only
 * names the proposal or intent; who may act is the use-cases' question, asked of the verified user
 * id (they re-resolve authority on the server and audit refusals). The clicker hears the result.
 */
export async function answerClick(deps: AnswerClickDeps, click: ClickFollowUp): Promise<void> {
  if (click.replayKeys && click.replayKeys.length > 0) {
    const claim = deps.claim;
    // Keys to claim and nowhere to claim them: refused rather than risk answering a replay.
    if (!claim) return;
    const claims = await Promise.all(click.replayKeys.map(async (key) => claim(key, click.deliveryId)));
    if (claims.includes(false)) return; // a retry or a replay of a click already answered
  }
  const caller = { userId: click.user.id, ...(click.user.name ? { name: click.user.name } : {}), via: 'slack' as const };
  const tell = (text: string) => deps.tell(click.channel, click.user.id, text);
  if (click.actionId === ActionId.Approve) {
    const value = parseValue(DecisionValue, click.value);
    if (!value) return tell(INVALID);
    const result = await settle(deps.logger, 'approve the fix', () => deps.commands.approve({ incidentId: value.incidentId, proposalHash: value.proposalHash, caller }));
    // The use-case (and the fix job after it) updates the card; the clicker hears the result here.
    return tell(result.message);
  }
  if (click.actionId === ActionId.RunAction || click.actionId === ActionId.RequestStepUp) {
    const value = parseValue(ActionValue, click.value);
    const actions = deps.actions;
    if (!value || !actions) return tell(INVALID);
    const run = click.actionId === ActionId.RunAction;
    const input = { ...value, userId: click.user.id };
    const result = await settle(deps.logger, run ? 'run the action' : 'request a step-up', () => (run ? actions.run(input) : actions.requestStepUp(input)));
    return tell(result.message);
  }
  if (FEEDBACK.test(click.actionId)) {
    const value = parseValue(FeedbackValue, click.value);
    if (!value) return;
    const result = await settle(deps.logger, 'record your feedback', () => deps.commands.feedback({ ...value, caller }));
    return tell(result.ok ? 'Thanks — Medic recorded your feedback.' : result.message);
  }
  return tell(INVALID);
}

/**
 * How a worker tells the clicker: the chat's ephemeral (paced, redacted), audited like every reply
 * to a requester. A failure is logged and audited, never thrown: the click is answered either way.
 */
export function tellThroughChat(chat: Pick<Chat, 'postEphemeral'>, audit: AuditLog, logger: { warn(message: string): void }): AnswerClickDeps['tell'] {
  return async (channel, userId, text) => {
    if (!channel) return;
    const outcome = await chat.postEphemeral(channel, userId, text).then(() => 'done' as const, (error: unknown) => {
      logger.warn(`Could not post an ephemeral message: ${asMedicError(error).message}`);
      return 'failed' as const;
    });
    await audit.append([{ at: new Date().toISOString(), action: 'slack.ephemeral', outcome, actor: { kind: 'user', id: userId }, details: { channel } }]).catch((error: unknown) => {
      logger.warn(`Could not audit slack.ephemeral to ${userId}: ${asMedicError(error).message}`);
    });
  };
}
