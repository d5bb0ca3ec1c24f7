import type { types } from '@slack/bolt';
import type { CardRef } from '../../domain/incident.js';
import type { Chat, ChatMessage } from '../../ports/chat.js';
import type { CallPacer, CallPriority, CardVersions, PostLedger } from '../../ports/chat-pacing.js';
import { ErrorCode, MedicError, isMedicError } from '../../domain/errors.js';
import type { ServiceCheck } from '../../ports/service-check.js';
import { untrusted } from '../../presenters/mrkdwn.js';
import { findMessagesByKey, keyedFileName, keyMetadata, type LookupOptions, type PosterIdentity } from './message-keys.js';
import { resolveChannelId } from './resolve-channel.js';
import { callSlack, toSlackError } from './slack-errors.js';
import { createSlackWebClient, type SlackClientOptions, type SlackWebClient } from './web-client.js';
import { redactKnownSecrets } from '../../domain/untrusted/known-secrets.js';
import { redactDeep } from '../../domain/untrusted/redact.js';

/** A retry-later answer: the outcome of an earlier call is not known yet. */
function unsettled(message: string, retryAfterMs: number): MedicError {
  return new MedicError(ErrorCode.UpstreamUnavailable, message, { transient: true, retryAfterMs: Math.max(1, Math.round(retryAfterMs)), upstreamCode: 'unsettled' });
}

/**
 * True when Slack surely did not post: it answered with an error (a 429 included), or the pacer
 * kept the call from leaving. A timeout, a 5xx or a lost connection leave the outcome unknown.
 */
function surelyNotPosted(error: unknown): boolean {
  const code = isMedicError(error) ? error.upstreamCode : undefined;
  return code !== undefined && code !== 'timeout' && !code.startsWith('http_');
}

/**
 * Presenters redact what they render; Medic's own configured secrets are removed here too, by
 * value, from every text and block bound for Slack, whatever path built them.
 */
function withoutKnownSecrets(message: ChatMessage): ChatMessage {
  const { image, ...rest } = message;
  const clean = redactDeep(rest, redactKnownSecrets) as ChatMessage;
  // The picture's bytes are no text to redact; its title and alt text are.
  return image ? { ...clean, image: { ...image, title: redactKnownSecrets(image.title), altText: redactKnownSecrets(image.altText) } } : clean;
}

/** The message's ts from a files.completeUploadExternal answer: the share in `channel` (its thread's, for a reply). */
function sharedTs(result: unknown, channel: string): string | undefined {
  const completions = (result as { files?: { files?: { shares?: Record<string, Record<string, { ts?: string }[]>> }[] }[] }).files ?? [];
  for (const completion of completions) {
    for (const file of completion.files ?? []) {
      for (const scope of Object.values(file.shares ?? {})) {
        const ts = scope[channel]?.[0]?.ts;
        if (ts) return ts;
      }
    }
  }
  return undefined;
}

export type SlackChatOptions = {
  channel: string;
  /** Spaces calls per channel across workers and honours 429s; without it calls go out at once. */
  pacer?: CallPacer;
  /** Refuses an update rendered from an older incident version than one already sent. */
  versions?: CardVersions;
  /**
   * Posts once per key without reading Slack on the happy path (one call per post); without it
   * every post is looked up in the history before and after it is sent.
   */
  posts?: PostLedger;
  /** Called for every update skipped as stale (for metrics). */
  onStale?: () => void;
  /** How long Slack may still apply an update after its call timed out (default 2 × the call deadline). */
  lateWindowMs?: number;
} & ({ client: SlackWebClient } | SlackClientOptions);

/**
 * The Chat port over the Slack Web API (real Slack or the sandbox).
 *
 * Idempotency by key: each post carries `metadata {event_type: 'medic_card', event_payload: {key}}`.
 * With a post ledger (Redis, every deployment), an attempt is recorded before it goes out and its
 * ts once Slack answers: a retry returns the recorded ts, and Slack is looked up (one history
 * read) only when an earlier attempt's outcome is unknown, after the time a late post may still
 * land; a copy that lands even later is found by one more look-up and deleted. Without a ledger,
 * before posting, the recent history (or the thread) is searched for that key, so a job retried
 * after a post whose answer was lost finds the first post instead of posting again. After posting,
 * the search runs once more and the oldest message with the key wins: if two workers raced past the
 * first check, the later one deletes its own copy and returns the winner, so a key never leaves two
 * messages behind. A short in-process cache skips the search for keys this process already posted.
 */
export function createSlackChat(options: SlackChatOptions): Chat & { channelId(): Promise<string> } {
  const client = 'client' in options ? options.client : createSlackWebClient(options);
  const { pacer } = options;
  const lateWindowMs = options.lateWindowMs ?? ('client' in options ? 30_000 : 2 * (options.timeoutMs ?? 15_000));
  /** One Web API call in its channel's turn; a 429 holds the channel back for every worker. */
  const paced = async <T>(method: string, channel: string, priority: CallPriority, call: () => Promise<T>): Promise<T> => {
    await pacer?.take(channel, priority);
    try {
      return await callSlack(method, options.channel, call);
    } catch (error) {
      if (pacer && isMedicError(error) && error.retryAfterMs !== undefined) await pacer.hold(channel, error.retryAfterMs);
      throw error;
    }
  };
  const known = new Map<string, string>();
  const inflight = new Map<string, Promise<string>>();
  let channelId: Promise<string> | undefined;

  const resolveChannel = (): Promise<string> => {
    channelId ??= (pacer ? pacer.take(options.channel, 'final') : Promise.resolve()).then(() => resolveChannelId(client, options.channel)).catch((error: unknown) => {
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

  // Who Medic is on Slack, asked once: a lookup that trusted metadata alone would take another app's message as Medic's card.
  let identity: Promise<PosterIdentity> | undefined;
  // Paced like every other call on the channel: it counts against the same rate limit.
  const ownIdentity = (channel: string): Promise<PosterIdentity> => {
    identity ??= paced('auth.test', channel, 'final', () => client.auth.test()).then((auth) => {
      if (!auth.bot_id) throw new MedicError(ErrorCode.ConfigInvalid, 'Slack auth.test named no bot_id: SLACK_BOT_TOKEN must be a bot token (xoxb-…).');
      return { botId: auth.bot_id, ...(typeof (auth as { app_id?: unknown }).app_id === 'string' ? { appId: (auth as { app_id: string }).app_id } : {}) };
    });
    identity.catch(() => (identity = undefined));
    return identity;
  };
  /** Medic's own messages carrying `key`: only a message Medic's bot posted stands for its card. */
  const findOwnMessages = async (channel: string, key: string, lookup: LookupOptions) =>
    findMessagesByKey(client, channel, key, await ownIdentity(channel), lookup);

  /** Posts once per key within `channel` (and thread, when `threadTs` is set). */
  async function postOnce(channel: string, key: string, unsafe: ChatMessage, threadTs?: string): Promise<string> {
    const message = withoutKnownSecrets(unsafe);
    const cacheKey = `${channel}/${threadTs ?? ''}/${key}`;
    const cached = known.get(cacheKey);
    if (cached) return cached;
    const running = inflight.get(cacheKey);
    if (running) return running;
    const lookup = { ...(threadTs ? { threadTs } : {}), beforeEachPage: () => pacer?.take(channel, 'final') };
    const image = message.image;
    const upload = async (): Promise<{ ts?: string }> => {
      if (!image || !threadTs) throw new MedicError(ErrorCode.Internal, 'A picture is posted as a thread reply only.');
      // files.getUploadURLExternal, the bytes to its upload_url, files.completeUploadExternal: one
      // share, the text as its comment, the key in the file's name (an upload takes no metadata).
      const result = await paced('files.uploadV2', channel, 'final', () =>
        client.filesUploadV2({
          channel_id: channel,
          thread_ts: threadTs,
          initial_comment: message.text,
          file: Buffer.from(image.pngBase64, 'base64'),
          filename: keyedFileName(key, image.filename),
          title: image.title,
          alt_text: image.altText,
        }),
      );
      // Real Slack may fill the share in a moment later: the post is done either way, its ts unknown
      // (''), and no copy is ever deleted against an unknown ts.
      return { ts: sharedTs(result, channel) ?? '' };
    };
    const send = () =>
      image && threadTs ? upload() : paced('chat.postMessage', channel, 'final', () =>
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
    const post = () =>
      send().catch(async (error: unknown) => {
        // not_in_channel: a public channel can be joined with channels:join; otherwise the operator invites the bot.
        if (!isMedicError(error) || error.upstreamCode !== 'not_in_channel') throw error;
        await paced('conversations.join', channel, 'final', () => client.conversations.join({ channel })).catch(() => {
          throw error;
        });
        return send();
      });
    const work = options.posts ? postWithLedger(options.posts, channel, key, cacheKey, lookup, post) : (async () => {
      // A post that timed out may have landed: looking it up first is what makes a retry safe.
      const existing = await findOwnMessages(channel, key, lookup).catch(holdOn429(channel));
      if (existing[0]) return existing[0];
      const posted = await post();
      const ts = posted.ts ?? '';
      const winner = (await findOwnMessages(channel, key, lookup).catch(holdOn429(channel)))[0] ?? ts;
      if (ts && winner !== ts) await client.chat.delete({ channel, ts }).catch(() => undefined);
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

  /**
   * One call on the happy path: mark, post, record. A mark left by an attempt whose outcome is
   * unknown is resolved by one look-up once a late post can no longer land (until then the job
   * retries later); only a post that went out after such a look-up is checked once more for a
   * late copy, which is deleted.
   */
  async function postWithLedger(posts: PostLedger, channel: string, key: string, cacheKey: string, lookup: LookupOptions, post: () => Promise<{ ts?: string }>): Promise<string> {
    const entry = await posts.get(cacheKey);
    if (entry && 'ts' in entry) return entry.ts;
    let unknownBefore = false;
    if (entry) {
      const age = Date.now() - entry.pendingSince;
      if (age < lateWindowMs) throw unsettled(`A post of ${key} went out ${age} ms ago with no answer yet; it may still land.`, lateWindowMs - age);
      const found = await findOwnMessages(channel, key, lookup).catch(holdOn429(channel));
      if (found[0]) {
        await deleteCopies(channel, found.slice(1));
        await posts.done(cacheKey, found[0]);
        return found[0];
      }
      unknownBefore = true;
    }
    const begun = await posts.begin(cacheKey, Date.now(), lateWindowMs);
    if (begun === 'busy') throw unsettled(`Another attempt is posting ${key}.`, lateWindowMs);
    if (begun !== 'ok') return begun.ts;
    let ts: string;
    try {
      ts = (await post()).ts ?? '';
    } catch (error) {
      if (surelyNotPosted(error)) await posts.clear(cacheKey);
      throw error;
    }
    await posts.done(cacheKey, ts);
    if (unknownBefore && ts) checkLateCopies(channel, key, ts, lookup);
    return ts;
  }

  /** After `lateWindowMs`, one look-up: a late copy of an attempt whose outcome was unknown is deleted. */
  function checkLateCopies(channel: string, key: string, keep: string, lookup: LookupOptions, tries = 3): void {
    setTimeout(() => {
      void findOwnMessages(channel, key, lookup)
        .then((found) => deleteCopies(channel, found.filter((ts) => ts !== keep)))
        .catch(() => (tries > 1 ? checkLateCopies(channel, key, keep, lookup, tries - 1) : undefined));
    }, lateWindowMs).unref();
  }

  async function deleteCopies(channel: string, copies: string[]): Promise<void> {
    for (const ts of copies) await paced('chat.delete', channel, 'final', () => client.chat.delete({ channel, ts })).catch(() => undefined);
  }

  function holdOn429(channel: string) {
    return async (error: unknown): Promise<never> => {
      if (pacer && isMedicError(error) && error.retryAfterMs !== undefined) await pacer.hold(channel, error.retryAfterMs);
      throw error;
    };
  }

  return {
    channelId: resolveChannel,

    async postCard(key, message, named): Promise<CardRef> {
      const channel = await resolveNamed(named);
      const ref = { channel, ts: await postOnce(channel, key, message) };
      // The posted render counts as sent: no update from an older version may follow it.
      if (options.versions && message.version !== undefined) await options.versions.admit(ref, message.version);
      return ref;
    },

    async updateCard(ref, unsafe): Promise<void> {
      const message = withoutKnownSecrets(unsafe);
      if (options.versions && message.version !== undefined && !(await options.versions.admit(ref, message.version))) {
        options.onStale?.();
        return; // a newer render was already sent: this one would take the card back in time
      }
      const versions = options.versions;
      const unsettled = versions ? await versions.unsettledMs(ref) : 0;
      if (unsettled > 0) {
        throw new MedicError(ErrorCode.UpstreamUnavailable, `An earlier update of card ${ref.ts} timed out and may still land; this one waits ${unsettled} ms.`, { transient: true, retryAfterMs: unsettled, upstreamCode: 'unsettled' });
      }
      await paced('chat.update', ref.channel, message.progress ? 'progress' : 'final', () =>
        client.chat.update({ channel: ref.channel, ts: ref.ts, text: message.text, blocks: message.blocks as unknown as types.KnownBlock[] }),
      ).catch(async (error: unknown) => {
        if (versions && isMedicError(error) && error.upstreamCode === 'timeout') await versions.unsettle(ref, lateWindowMs);
        throw error;
      });
    },

    async replyInThread(ref, key, message): Promise<void> {
      await postOnce(ref.channel, key, message, ref.ts);
    },

    async postEphemeral(channel, userId, text): Promise<void> {
      const id = channel === options.channel ? await resolveChannel() : channel;
      await paced('chat.postEphemeral', id, 'final', () => client.chat.postEphemeral({ channel: id, user: userId, text: redactKnownSecrets(untrusted(text, 3_000)) }));
    },

    async check(): Promise<ServiceCheck> {
      const adapter = `slack ${client.slackApiUrl}`;
      try {
        const auth = await client.auth.test();
        const channel = await resolveChannel();
        // auth.test passes with a bot that cannot see the channel: a real history read proves the card path.
        await callSlack('conversations.history', options.channel, () => client.conversations.history({ channel, limit: 1 }));
        return { name: 'chat', adapter, ok: true, detail: `bot ${auth.user ?? auth.user_id ?? '?'} in team ${auth.team ?? auth.team_id ?? '?'}, channel ${channel} readable` };
      } catch (error) {
        return { name: 'chat', adapter, ok: false, detail: toSlackError(error, 'auth.test', options.channel).message };
      }
    },
  };
}
