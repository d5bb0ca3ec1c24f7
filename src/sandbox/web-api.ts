import { randomUUID } from 'node:crypto';
import { MAX_FILE_BYTES, type SandboxFile } from './sandbox-files.js';
import type { SandboxState, SandboxMessage } from './sandbox-state.js';
import { SANDBOX_APPROVER_GROUP, SANDBOX_APPROVERS, SANDBOX_BOT, SANDBOX_TEAM } from './sandbox-users.js';

export interface ApiReply {
  status: number;
  headers?: Record<string, string>;
  body: Record<string, unknown>;
}

type Args = Record<string, unknown>;
const ok = (body: Args = {}): ApiReply => ({ status: 200, body: { ok: true, ...body } });
const fail = (error: string): ApiReply => ({ status: 200, body: { ok: false, error } });

/** @slack/web-api sends objects (blocks, metadata, view) as JSON strings inside the form. */
function json(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/** Where the sandbox serves a shared file (Slack's `url_private`), on its own loopback origin. */
export function fileUrl(baseUrl: string, id: string, name: string): string {
  return `${baseUrl}/sandbox/files/${encodeURIComponent(id)}/${encodeURIComponent(name)}`;
}

/** A file object as Slack returns it (the fields a client reads), with its share in `channel`. */
function presentFile(file: Pick<SandboxFile, 'id' | 'name' | 'title' | 'mimetype' | 'altText'> & { size?: number }, baseUrl: string, share?: { channel: string; ts: string; threadTs?: string }): Args {
  return {
    id: file.id, name: file.name, title: file.title, mimetype: file.mimetype, filetype: file.mimetype === 'image/png' ? 'png' : 'binary',
    ...(file.size !== undefined ? { size: file.size } : {}), ...(file.altText ? { alt_txt: file.altText } : {}),
    user: SANDBOX_BOT.userId, url_private: fileUrl(baseUrl, file.id, file.name), is_public: true,
    ...(share ? { channels: [share.channel], shares: { public: { [share.channel]: [{ ts: share.ts, ...(share.threadTs ? { thread_ts: share.threadTs } : {}), share_user_id: SANDBOX_BOT.userId }] } } } : {}),
  };
}

function present(m: SandboxMessage, withMetadata: boolean, baseUrl = ''): Args {
  return {
    type: 'message', ts: m.ts, user: m.user, text: m.text, blocks: m.blocks,
    ...(m.files ? { files: m.files.map((f) => presentFile(f, baseUrl)), upload: true } : {}),
    ...(m.botId ? { bot_id: m.botId, app_id: SANDBOX_BOT.appId } : {}),
    ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
    ...(m.edited ? { edited: { user: m.user, ts: m.ts } } : {}),
    ...(withMetadata && m.metadata ? { metadata: m.metadata } : {}),
  };
}

const textOf = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
const flag = (v: unknown): boolean => v === true || v === 'true' || v === '1';

type Method = (state: SandboxState, args: Args, baseUrl: string) => ApiReply;

const methods: Record<string, Method> = {
  'auth.test': () => ok({ url: `https://${SANDBOX_TEAM.domain}.slack.com/`, team: 'Medic sandbox', user: SANDBOX_BOT.name, team_id: SANDBOX_TEAM.id, user_id: SANDBOX_BOT.userId, bot_id: SANDBOX_BOT.botId }),
  'chat.postMessage': (state, args) => {
    const channel = state.resolveChannel(args.channel);
    if (!channel) return fail('channel_not_found');
    const threadTs = typeof args.thread_ts === 'string' && args.thread_ts ? args.thread_ts : undefined;
    if (threadTs && !state.find(threadTs)) return fail('thread_not_found');
    const metadata = json(args.metadata) as SandboxMessage['metadata'];
    const m = state.add({ channel, user: SANDBOX_BOT.userId, botId: SANDBOX_BOT.botId, text: textOf(args.text), blocks: (json(args.blocks) as unknown[]) ?? [], ...(metadata ? { metadata } : {}), ...(threadTs ? { threadTs } : {}) });
    return ok({ channel, ts: m.ts, message: present(m, true) });
  },
  'chat.update': (state, args) => {
    const m = typeof args.ts === 'string' ? state.find(args.ts) : undefined;
    if (!state.resolveChannel(args.channel)) return fail('channel_not_found');
    if (!m) return fail('message_not_found');
    if (m.user !== SANDBOX_BOT.userId) return fail('cant_update_message');
    m.text = textOf(args.text, m.text);
    if (args.blocks !== undefined) m.blocks = (json(args.blocks) as unknown[]) ?? [];
    m.edited = true;
    state.edited(m);
    return ok({ channel: m.channel, ts: m.ts, text: m.text, message: present(m, false) });
  },
  'chat.delete': (state, args) => {
    const m = state.messages.find((candidate) => candidate.ts === args.ts && !candidate.ephemeralFor);
    if (!m) return fail('message_not_found');
    state.remove(m);
    return ok({ channel: m.channel, ts: m.ts });
  },
  'chat.postEphemeral': (state, args) => {
    const channel = state.resolveChannel(args.channel);
    if (!channel) return fail('channel_not_found');
    if (typeof args.user !== 'string' || !args.user) return fail('user_not_in_channel');
    const m = state.add({ channel, user: SANDBOX_BOT.userId, botId: SANDBOX_BOT.botId, text: textOf(args.text), blocks: (json(args.blocks) as unknown[]) ?? [], ephemeralFor: args.user });
    return ok({ message_ts: m.ts });
  },
  'conversations.history': (state, args, baseUrl) => {
    // As Slack: the history of a channel is read by its id, never its name.
    if (!state.channels.some((c) => c.id === args.channel)) return fail('channel_not_found');
    const top = state.messages.filter((m) => !m.ephemeralFor && !m.threadTs && m.channel === args.channel).reverse();
    return page(top, args, (m) => present(m, flag(args.include_all_metadata), baseUrl));
  },
  'conversations.replies': (state, args, baseUrl) => {
    const parent = typeof args.ts === 'string' ? state.find(args.ts) : undefined;
    if (!parent) return fail('thread_not_found');
    const thread = [parent, ...state.messages.filter((m) => !m.ephemeralFor && m.threadTs === parent.ts)];
    return page(thread, args, (m) => present(m, flag(args.include_all_metadata), baseUrl));
  },
  // Slack's upload in three steps: a URL for the bytes, the bytes (POST to that URL), the share.
  'files.getUploadURLExternal': (state, args, baseUrl) => {
    const filename = textOf(args.filename).trim();
    const length = Number(args.length);
    if (!filename || !Number.isInteger(length) || length <= 0) return fail('invalid_arguments');
    if (length > MAX_FILE_BYTES) return fail('file_too_large');
    const file = state.files.reserve({ name: filename, length, ...(textOf(args.alt_text) ? { altText: textOf(args.alt_text).slice(0, 1_000) } : {}) });
    return ok({ upload_url: `${baseUrl}/upload/v1/${file.id}/${file.uploadToken}`, file_id: file.id });
  },
  'files.completeUploadExternal': (state, args, baseUrl) => {
    const listed = json(args.files);
    if (!Array.isArray(listed) || listed.length === 0) return fail('invalid_arguments');
    const files: SandboxFile[] = [];
    for (const entry of listed as unknown[]) {
      const id = entry && typeof entry === 'object' ? (entry as Args).id : undefined;
      const file = typeof id === 'string' ? state.files.get(id) : undefined;
      if (!file || !file.bytes) return fail('file_not_found');
      if (file.completed) return fail('file_already_completed');
      if (file.bytes.length !== file.length) return fail('file_upload_size_mismatch');
      const title = (entry as Args).title;
      if (typeof title === 'string' && title) file.title = title.slice(0, 250);
      files.push(file);
    }
    const threadTs = typeof args.thread_ts === 'string' && args.thread_ts ? args.thread_ts : undefined;
    const channelArg = args.channel_id ?? args.channels;
    for (const file of files) file.completed = true;
    // Without a channel the files stay private: completed, shared nowhere.
    if (channelArg === undefined || channelArg === '') return ok({ files: files.map((f) => presentFile({ ...f, size: f.length }, baseUrl)) });
    const channel = state.resolveChannel(channelArg);
    if (!channel) return fail('channel_not_found');
    if (threadTs && !state.find(threadTs)) return fail('thread_not_found');
    const shared = files.map((f) => ({ id: f.id, name: f.name, title: f.title, mimetype: f.mimetype, ...(f.altText ? { altText: f.altText } : {}) }));
    // As Slack: with an initial_comment the blocks are ignored; the comment is the message's text.
    const comment = textOf(args.initial_comment);
    const blocks = comment ? [] : ((json(args.blocks) as unknown[] | undefined) ?? []);
    const m = state.add({ channel, user: SANDBOX_BOT.userId, botId: SANDBOX_BOT.botId, text: comment, blocks, files: shared, ...(threadTs ? { threadTs } : {}) });
    return ok({ files: files.map((f) => presentFile({ ...f, size: f.length }, baseUrl, { channel, ts: m.ts, ...(threadTs ? { threadTs } : {}) })) });
  },
  'conversations.join': (state, args) => {
    const found = state.channels.find((c) => c.id === state.resolveChannel(args.channel));
    return found ? ok({ channel: { id: found.id, name: found.name, is_channel: true, is_member: true } }) : fail('channel_not_found');
  },
  'conversations.list': (state) => ok({ channels: state.channels.map((c) => ({ id: c.id, name: c.name, is_channel: true, is_member: true })), response_metadata: { next_cursor: '' } }),
  'usergroups.users.list': (_state, args) => (args.usergroup === SANDBOX_APPROVER_GROUP ? ok({ users: [...SANDBOX_APPROVERS] }) : fail('no_such_subteam')),
  'views.open': (state, args) => {
    const userId = typeof args.trigger_id === 'string' ? state.triggers.get(args.trigger_id) : undefined;
    if (!userId) return fail('invalid_trigger_id');
    state.triggers.delete(String(args.trigger_id)); // a trigger opens one view
    const view = json(args.view) as Args | undefined;
    if (!view || view.type !== 'modal') return fail('invalid_arguments');
    const id = `V${randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase()}`;
    state.views.set(id, { id, userId, hash: randomUUID(), view });
    state.touch();
    return ok({ view: { id, ...view } });
  },
};

/** Cursor pagination as Slack does it: an opaque cursor and `response_metadata.next_cursor`. */
function page(list: SandboxMessage[], args: Args, show: (m: SandboxMessage) => Args): ApiReply {
  const limit = Math.min(Math.max(Number(args.limit) || 100, 1), 1_000);
  const start = typeof args.cursor === 'string' && args.cursor ? Number(Buffer.from(args.cursor, 'base64').toString()) || 0 : 0;
  const slice = list.slice(start, start + limit);
  const more = start + limit < list.length;
  return ok({ messages: slice.map(show), has_more: more, response_metadata: { next_cursor: more ? Buffer.from(String(start + limit)).toString('base64') : '' } });
}

/** One Web API call: faults first (429 with Retry-After, 5xx, platform errors), then auth, then the method. */
export function callWebApi(state: SandboxState, botToken: string, method: string, authorization: string | undefined, args: Args, baseUrl = ''): ApiReply {
  const fault = state.takeFault(method);
  if (fault?.status === 429) return { status: 429, headers: { 'retry-after': String(fault.retryAfterSeconds ?? 1) }, body: { ok: false, error: 'ratelimited' } };
  if (fault?.status) return { status: fault.status, body: { ok: false, error: fault.error ?? 'internal_error' } };
  if (fault?.error) return fail(fault.error);
  if (!authorization) return fail('not_authed');
  if (authorization !== `Bearer ${botToken}`) return fail('invalid_auth');
  const handler = methods[method];
  if (!handler) return fail('unknown_method');
  const { token: _token, ...rest } = args;
  state.recordCall({ method, args: rest });
  return handler(state, args, baseUrl);
}
