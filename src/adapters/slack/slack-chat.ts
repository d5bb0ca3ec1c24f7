import type { types } from '@slack/bolt';
import type { CardRef } from '../../domain/incident.js';
import type { Chat, ChatMessage } from '../../ports/chat.js';
import type { ServiceCheck } from '../../ports/service-check.js';
import { untrusted } from '../../presenters/mrkdwn.js';
import { findMessagesByKey, keyMetadata } from './message-keys.js';
import { resolveChannelId } from './resolve-channel.js';
import { callSlack, toSlackError } from './slack-errors.js';
import { createSlackWebClient, type SlackClientOptions, type SlackWebClient } from './web-client.js';
import { redactKnownSecrets } from '../../domain/untrusted/known-secrets.js';
import { redactDeep } from '../../domain/untrusted/redact.js';

/**
 * Presenters redact what they render; Medic's own configured secrets are removed here too, by
 * value, from every text and block bound for Slack, whatever path built them.
 */
function withoutKnownSecrets(message: ChatMessage): ChatMessage {
  return redactDeep(message, redactKnownSecrets) as ChatMessage;
}

export type SlackChatOptions = { channel: string } & ({ client: SlackWebClient } | SlackClientOptions);

/**
 * The Chat port over the Slack Web API (real Slack or the sandbox).
 *
 * Idempotency by key: each post carries `metadata {event_type: 'medic_card', event_payload: {key}}`.
 * Before posting, the recent history (or the thread) is searched for that key, so a job retried
 * after a post whose answer was lost finds the first post instead of posting again. After posting,
 * the search runs once more and the oldest message with the key wins: if two workers raced past the
 * first check, the later one deletes its own copy and returns the winner, so a key never leaves two
 * messages behind. A short in-process cache skips the search for keys this process already posted.
 */
export function createSlackChat(options: SlackChatOptions): Chat & { channelId(): Promise<string> } {
  const client = 'client' in options ? options.client : createSlackWebClient(options);
  const known = new Map<string, string>();
  const inflight = new Map<string, Promise<string>>();
  let channelId: Promise<string> | undefined;

  const resolveChannel = (): Promise<string> => {
    channelId ??= resolveChannelId(client, options.channel).catch((error: unknown) => {
      channelId = undefined; // a failed lookup is retried on the next call
      throw error;
    });
    return channelId;
  };

  // Other channels (the service catalog's) are resolved once each, like the configured one.
  const others = new Map<string, Promise<string>>();
  const resolveNamed = (name: string | undefined): Promise<string> => {
    if (name === undefined || name === options.channel) return resolveChannel();
    let id = others.get(name);
    if (!id) {
      id = resolveChannelId(client, name).catch((error: unknown) => {
        others.delete(name);
        throw error;
      });
      others.set(name, id);
    }
    return id;
  };

  const remember = (cacheKey: string, ts: string): void => {
    if (known.size >= 1_000) known.delete(known.keys().next().value ?? '');
    known.set(cacheKey, ts);
  };

  /** Posts once per key within `channel` (and thread, when `threadTs` is set). */
  async function postOnce(channel: string, key: string, unsafe: ChatMessage, threadTs?: string): Promise<string> {
    const message = withoutKnownSecrets(unsafe);
    const cacheKey = `${channel}/${threadTs ?? ''}/${key}`;
    const cached = known.get(cacheKey);
    if (cached) return cached;
    const running = inflight.get(cacheKey);
    if (running) return running;
    const work = (async () => {
      const lookup = threadTs ? { threadTs } : {};
      const existing = await findMessagesByKey(client, channel, key, lookup);
      if (existing[0]) return existing[0];
      const posted = await callSlack('chat.postMessage', options.channel, () =>
        client.chat.postMessage({
          channel,
          text: message.text,
          blocks: message.blocks as unknown as types.KnownBlock[],
          metadata: keyMetadata(key),
          unfurl_links: false,
          unfurl_media: false,
          ...(threadTs ? { thread_ts: threadTs } : {}),
        }),
      );
      const ts = posted.ts ?? '';
      const winner = (await findMessagesByKey(client, channel, key, lookup))[0] ?? ts;
      if (winner !== ts) await client.chat.delete({ channel, ts }).catch(() => undefined);
      return winner;
    })();
    inflight.set(cacheKey, work);
    try {
      const ts = await work;
      remember(cacheKey, ts);
      return ts;
    } finally {
      inflight.delete(cacheKey);
    }
  }

  return {
    channelId: resolveChannel,

    async postCard(key, message, named): Promise<CardRef> {
      const channel = await resolveNamed(named);
      return { channel, ts: await postOnce(channel, key, message) };
    },

    async updateCard(ref, unsafe): Promise<void> {
      const message = withoutKnownSecrets(unsafe);
      await callSlack('chat.update', ref.channel, () => client.chat.update({ channel: ref.channel, ts: ref.ts, text: message.text, blocks: message.blocks as unknown as types.KnownBlock[] }));
    },

    async replyInThread(ref, key, message): Promise<void> {
      await postOnce(ref.channel, key, message, ref.ts);
    },

    async postEphemeral(channel, userId, text): Promise<void> {
      const id = channel === options.channel ? await resolveChannel() : channel;
      await callSlack('chat.postEphemeral', channel, () => client.chat.postEphemeral({ channel: id, user: userId, text: redactKnownSecrets(untrusted(text, 3_000)) }));
    },

    async check(): Promise<ServiceCheck> {
      const adapter = `slack ${client.slackApiUrl}`;
      try {
        const auth = await client.auth.test();
        const channel = await resolveChannel();
        return { name: 'chat', adapter, ok: true, detail: `bot ${auth.user ?? auth.user_id ?? '?'} in team ${auth.team ?? auth.team_id ?? '?'}, channel ${channel}` };
      } catch (error) {
        return { name: 'chat', adapter, ok: false, detail: toSlackError(error, 'auth.test', options.channel).message };
      }
    },
  };
}
