import type { SlackWebClient } from './web-client.js';
import { callSlack } from './slack-errors.js';
import { ErrorCode, MedicError } from '../../domain/errors.js';

/** Channel ids start with C (public), G (private) or D (DM); anything else is a name. */
export function isChannelId(channel: string): boolean {
  return /^[CGD][A-Z0-9]{2,}$/.test(channel);
}

/**
 * conversations.history needs a channel id while operators like to configure `#incidents`. A name
 * is resolved once through conversations.list; configure the id (C…) to skip the lookup.
 */
export async function resolveChannelId(client: SlackWebClient, channel: string): Promise<string> {
  if (isChannelId(channel)) return channel;
  const name = channel.replace(/^#/, '');
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const result = await callSlack('conversations.list', channel, () =>
      client.conversations.list({ types: 'public_channel,private_channel', exclude_archived: true, limit: 1_000, ...(cursor ? { cursor } : {}) }),
    );
    const match = result.channels?.find((c) => c.name === name);
    if (match?.id) return match.id;
    cursor = result.response_metadata?.next_cursor || undefined;
    if (!cursor) break;
  }
  throw new MedicError(ErrorCode.UpstreamRejected, `Slack has no channel named "${name}" visible to the bot: check MEDIC_SLACK_CHANNEL (or set it to the channel id, C…).`);
}
