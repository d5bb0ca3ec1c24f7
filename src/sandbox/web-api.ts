import { randomUUID } from 'node:crypto';
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

function present(m: SandboxMessage, withMetadata: boolean): Args {
  return {
    type: 'message', ts: m.ts, user: m.user, text: m.text, blocks: m.blocks,
    ...(m.botId ? { bot_id: m.botId, app_id: SANDBOX_BOT.appId } : {}),
    ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
    ...(m.edited ? { edited: { user: m.user, ts: m.ts } } : {}),
    ...(withMetadata && m.metadata ? { metadata: m.metadata } : {}),
  };
}

const textOf = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
const flag = (v: unknown): boolean => v === true || v === 'true' || v === '1';

type Method = (state: SandboxState, args: Args) => ApiReply;

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
  'conversations.history': (state, args) => {
    // As Slack: the history of a channel is read by its id, never its name.
    if (!state.channels.some((c) => c.id === args.channel)) return fail('channel_not_found');
    const top = state.messages.filter((m) => !m.ephemeralFor && !m.threadTs && m.channel === args.channel).reverse();
    return page(top, args, (m) => present(m, flag(args.include_all_metadata)));
  },
  'conversations.replies': (state, args) => {
    const parent = typeof args.ts === 'string' ? state.find(args.ts) : undefined;
    if (!parent) return fail('thread_not_found');
    const thread = [parent, ...state.messages.filter((m) => !m.ephemeralFor && m.threadTs === parent.ts)];
    return page(thread, args, (m) => present(m, flag(args.include_all_metadata)));
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
export function callWebApi(state: SandboxState, botToken: string, method: string, authorization: string | undefined, args: Args): ApiReply {
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
  return handler(state, args);
}
