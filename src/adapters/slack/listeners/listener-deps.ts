import type { Logger } from '@slack/bolt';
import type { AuditLog } from '../../../ports/audit.js';
import type { Authority } from '../../../ports/authority.js';
import type { ClickFollowUps } from '../../../ports/click-follow-ups.js';
import type { GroupingCommands } from '../../../use-cases/grouping-commands.js';
import type { Caller, CommandResult, IncidentCommands } from '../../../use-cases/incident-commands.js';
import { asMedicError } from '../../../domain/errors.js';
import { untrusted } from '../../../presenters/mrkdwn.js';
import { toSlackError } from '../slack-errors.js';
import type { SlackWebClient } from '../web-client.js';

export interface ListenerDeps {
  commands: IncidentCommands;
  authority: Authority;
  /** Where the replies below are audited; without it (tests of the transport alone) they are not. */
  audit?: AuditLog;
  /** `/medic merge|split` and Open incident, when the gateway is built. */
  grouping?: GroupingCommands;
  /** Where acked clicks go for a worker to answer; without it they are answered on this loop. */
  followUps?: ClickFollowUps;
}

/** What a listener needs to answer the person who asked. */
export interface ReplyContext {
  client: SlackWebClient;
  logger: Logger;
  audit?: AuditLog;
}

/**
 * Replies to the verified requester (an ephemeral, a modal, the slash command's response_url) do
 * not pass the tool gateway: they answer that one person about their own request within Slack's
 * deadlines (a trigger_id lives 3 seconds), change nothing outside Slack, and carry only presenter
 * output. Each is audited here instead, with its outcome. An audit that cannot be written is
 * logged: the answer already reached the person, and refusing it now would undo nothing.
 */
export async function auditReply(reply: ReplyContext, action: 'slack.ephemeral' | 'slack.views-open' | 'slack.respond', userId: string, outcome: 'done' | 'failed', details: Record<string, unknown>): Promise<void> {
  if (!reply.audit) return;
  try {
    await reply.audit.append([{ at: new Date().toISOString(), action, outcome, actor: { kind: 'user', id: userId }, details }]);
  } catch (error) {
    reply.logger.warn(`Could not audit ${action} to ${userId}: ${asMedicError(error).message}`);
  }
}

/** Opens a modal for the clicker, audited; false when Slack refused (the caller tells the user). */
export async function openModal(reply: ReplyContext, triggerId: string, userId: string, view: { callback_id?: string }): Promise<boolean> {
  try {
    await reply.client.views.open({ trigger_id: triggerId, view: view as never });
    await auditReply(reply, 'slack.views-open', userId, 'done', { view: view.callback_id ?? 'modal' });
    return true;
  } catch (error) {
    reply.logger.warn(`views.open failed: ${asMedicError(error).message}`);
    await auditReply(reply, 'slack.views-open', userId, 'failed', { view: view.callback_id ?? 'modal' });
    return false;
  }
}

export function slackCaller(user: { id: string; name?: string | undefined; username?: string | undefined }): Caller {
  const name = user.name ?? user.username;
  return { userId: user.id, ...(name ? { name } : {}), via: 'slack' };
}

/**
 * Runs a use-case after the ack; a thrown error becomes a failed result with its code, so the
 * user always hears back and the listener never leaves a rejected promise behind.
 */
export async function runUseCase(logger: Logger, what: string, call: () => Promise<CommandResult>): Promise<CommandResult> {
  try {
    return await call();
  } catch (error) {
    const coded = asMedicError(error);
    logger.error(`Medic could not ${what}: ${coded.code} ${coded.message}`);
    return { ok: false, code: coded.code, message: `Medic could not ${what}: ${coded.message} (${coded.code})` };
  }
}

/** An ephemeral note to one user, audited; failures are logged, never thrown (the ack already went out). */
export async function tellUser(reply: ReplyContext, channel: string | undefined, userId: string, text: string): Promise<void> {
  if (!channel) return;
  try {
    await reply.client.chat.postEphemeral({ channel, user: userId, text: untrusted(text, 3_000) });
    await auditReply(reply, 'slack.ephemeral', userId, 'done', { channel });
  } catch (error) {
    reply.logger.warn(`Could not post an ephemeral message: ${toSlackError(error, 'chat.postEphemeral', channel).message}`);
    await auditReply(reply, 'slack.ephemeral', userId, 'failed', { channel });
  }
}

/**
 * Where a clicked message lives. Slack documents `container` for every message action (`channel`
 * and `message` are absent for ephemerals), and Bolt types it loosely, hence the narrowing here.
 */
export function clickedMessage(body: { container?: unknown; channel?: { id?: string } }): { channel?: string; ts?: string } {
  const container = (body.container ?? {}) as { channel_id?: unknown; message_ts?: unknown };
  const channel = typeof container.channel_id === 'string' ? container.channel_id : body.channel?.id;
  const ts = typeof container.message_ts === 'string' ? container.message_ts : undefined;
  return { ...(channel ? { channel } : {}), ...(ts ? { ts } : {}) };
}

export { afterAck } from '../post-ack-gate.js';
