import type { Logger } from '@slack/bolt';
import type { Authority } from '../../../ports/authority.js';
import type { GroupingCommands } from './open-incident-action.js';
import type { Caller, CommandResult, IncidentCommands } from '../../../use-cases/incident-commands.js';
import { asMedicError } from '../../../domain/errors.js';
import { untrusted } from '../../../presenters/mrkdwn.js';
import { toSlackError } from '../slack-errors.js';
import type { SlackWebClient } from '../web-client.js';

export interface ListenerDeps {
  commands: IncidentCommands;
  authority: Authority;
  /** `/medic merge|split` and Open incident, when the gateway is built. */
  grouping?: GroupingCommands;
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

/** An ephemeral note to one user; failures are logged, never thrown (the ack already went out). */
export async function tellUser(client: SlackWebClient, logger: Logger, channel: string | undefined, userId: string, text: string): Promise<void> {
  if (!channel) return;
  try {
    await client.chat.postEphemeral({ channel, user: userId, text: untrusted(text, 3_000) });
  } catch (error) {
    logger.warn(`Could not post an ephemeral message: ${toSlackError(error, 'chat.postEphemeral', channel).message}`);
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

/**
 * Yields to the event loop after an ack, so acks for requests that arrived in the same burst are
 * written before this one's use-case and Web API call run: under a click storm the 3-second ack
 * deadline is what Slack enforces, the follow-up message is not.
 */
export function afterAck(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
