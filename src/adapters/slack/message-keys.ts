import { createHash } from 'node:crypto';
import type { SlackWebClient } from './web-client.js';
import { callSlack } from './slack-errors.js';

/** Message metadata Medic attaches to every post so a retried job can find it again. */
export const MEDIC_EVENT_TYPE = 'medic_card';

export function keyMetadata(key: string): { event_type: string; event_payload: { key: string } } {
  return { event_type: MEDIC_EVENT_TYPE, event_payload: { key } };
}

/**
 * A file upload carries no metadata, so its key rides in the file's name instead:
 * `verification.png` → `verification-<16 hex of the key's hash>.png`. A look-up finds the
 * message whose file bears that tag.
 */
export function keyedFileName(key: string, filename: string): string {
  const dot = filename.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [filename.slice(0, dot), filename.slice(dot)] : [filename, ''];
  return `${stem}-${fileKeyTag(key)}${ext}`;
}

function fileKeyTag(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

interface KeyedMessage {
  ts?: string;
  bot_id?: string;
  app_id?: string;
  metadata?: { event_type?: string; event_payload?: Record<string, unknown> };
  files?: { name?: string }[];
}

function keyOf(message: KeyedMessage): string | undefined {
  const payload = message.metadata?.event_type === MEDIC_EVENT_TYPE ? message.metadata.event_payload : undefined;
  return typeof payload?.key === 'string' ? payload.key : undefined;
}

function carriesKey(message: KeyedMessage, key: string): boolean {
  if (keyOf(message) === key) return true;
  const tag = `-${fileKeyTag(key)}`;
  return (message.files ?? []).some((file) => typeof file.name === 'string' && file.name.replace(/\.[^.]*$/, '').endsWith(tag));
}

/** Medic's own bot (auth.test's bot_id) and, when known, app: only their messages count as Medic's posts. */
export interface PosterIdentity {
  botId: string;
  appId?: string;
}

/** Metadata is just fields any app may set: a message counts only when Medic's own bot or app posted it. */
function postedBy(message: KeyedMessage, poster: PosterIdentity): boolean {
  return message.bot_id === poster.botId || (poster.appId !== undefined && message.app_id === poster.appId);
}

export interface LookupOptions {
  /** Search a thread's replies instead of the channel's history. */
  threadTs?: string;
  /** Pages of 200 messages to scan; a retried job comes back within minutes, not weeks. */
  maxPages?: number;
  /** Awaited before each page is read (the channel's pacer). */
  beforeEachPage?: () => Promise<void> | undefined;
}

/**
 * Every message Medic posted in the recent channel history (or thread) carrying `key`, oldest first. Reads
 * with `include_all_metadata`, which Slack returns only to apps with the history scopes.
 */
export async function findMessagesByKey(client: SlackWebClient, channel: string, key: string, poster: PosterIdentity, options: LookupOptions = {}): Promise<string[]> {
  const found: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < (options.maxPages ?? 3); page++) {
    const method = options.threadTs ? 'conversations.replies' : 'conversations.history';
    await options.beforeEachPage?.();
    const result = await callSlack(method, channel, () =>
      options.threadTs
        ? client.conversations.replies({ channel, ts: options.threadTs ?? '', include_all_metadata: true, limit: 200, ...(cursor ? { cursor } : {}) })
        : client.conversations.history({ channel, include_all_metadata: true, limit: 200, ...(cursor ? { cursor } : {}) }),
    );
    for (const message of (result.messages ?? []) as KeyedMessage[]) {
      if (message.ts && carriesKey(message, key) && postedBy(message, poster)) found.push(message.ts);
    }
    cursor = result.response_metadata?.next_cursor || undefined;
    if (!cursor) break;
  }
  // Slack's ts strings compare numerically; oldest first makes "the first post wins" a sort.
  return found.sort((a, b) => Number(a) - Number(b));
}
