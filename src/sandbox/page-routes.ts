import type { ServerResponse } from 'node:http';
import { applyResponse, buildBlockActions, buildSlashCommand, buildViewSubmission, type InboundContext } from './inbound.js';
import { sendJson } from './http-io.js';
import type { SandboxState } from './sandbox-state.js';
import type { SandboxUser } from './sandbox-users.js';
import { formBody, postSigned } from './sign-request.js';

export interface PageDeps {
  state: SandboxState;
  baseUrl: () => string;
  signingSecret: string;
  medicEventsUrl: () => string;
  users: readonly SandboxUser[];
  command: string;
}

/** What the page sees: the channel, threads, the selected user's ephemerals and open modal. */
export function pageState(deps: PageDeps, userId: string): Record<string, unknown> {
  const { state } = deps;
  const visible = state.messages.filter((m) => !m.ephemeralFor || m.ephemeralFor === userId);
  const view = [...state.views.values()].find((v) => v.userId === userId);
  return {
    version: state.version,
    channel: state.channel,
    channels: state.channels,
    users: deps.users,
    command: deps.command,
    messages: visible.map((m) => ({
      ts: m.ts, channel: m.channel, text: m.text, blocks: withoutValues(m.blocks), threadTs: m.threadTs ?? null, ephemeral: m.ephemeralFor !== undefined, edited: m.edited ?? false, fromBot: m.botId !== undefined,
      // The page shows a file from the sandbox's own route; one forgotten past the bound shows its alt text only.
      ...(m.files ? { files: m.files.map((f) => ({ id: f.id, name: f.name, title: f.title, altText: f.altText ?? f.title, mimetype: f.mimetype, url: `/sandbox/files/${encodeURIComponent(f.id)}/${encodeURIComponent(f.name)}`, available: state.files.get(f.id)?.bytes !== undefined })) } : {}),
    })),
    view: view ? { id: view.id, view: view.view, errors: view.errors ?? {} } : null,
  };
}

/**
 * Blocks as the page renders them: button values stay on the server, which fills them in when it
 * builds a click (as Slack does); the page needs labels, styles and confirm dialogs only.
 */
function withoutValues(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutValues);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'value').map(([key, item]) => [key, withoutValues(item)]));
}

/**
 * The page's actions. The browser says who is clicking and what; the sandbox builds the payload
 * Slack would send, signs it with the secret (which never reaches the browser) and forwards it.
 */
export async function handlePageAction(deps: PageDeps, action: string, input: Record<string, unknown>, res: ServerResponse): Promise<void> {
  // Every action names who acts: a request naming no one is nobody, not the first approver.
  const user = deps.users.find((u) => u.id === input.userId);
  if (!user) return sendJson(res, 400, { error: 'user_required', detail: 'choose who you are in the sandbox page first' });
  const ctx: InboundContext = { state: deps.state, baseUrl: deps.baseUrl(), user };
  const forward = async (rawBody: string) => postSigned(deps.medicEventsUrl(), deps.signingSecret, rawBody);
  if (action === 'click') {
    const payload = buildBlockActions(ctx, { messageTs: String(input.messageTs), blockId: String(input.blockId), actionId: String(input.actionId) });
    if (!payload) return sendJson(res, 404, { error: 'message not found' });
    return sendJson(res, 200, await forward(formBody({ payload: JSON.stringify(payload) })));
  }
  if (action === 'submit') {
    const values = (input.values ?? {}) as Record<string, Record<string, string>>;
    const viewId = String(input.viewId);
    const payload = buildViewSubmission(ctx, viewId, values);
    if (!payload) return sendJson(res, 404, { error: 'view not found' });
    const result = await forward(formBody({ payload: JSON.stringify(payload) }));
    const open = deps.state.views.get(viewId);
    const reply = parseAck(result.body);
    // An ack with `response_action: errors` keeps the modal open with the messages; anything else closes it.
    if (open && reply?.response_action === 'errors') open.errors = (reply.errors ?? {}) as Record<string, string>;
    else if (result.status === 200) deps.state.views.delete(viewId);
    deps.state.touch();
    return sendJson(res, 200, result);
  }
  if (action === 'close') {
    deps.state.views.delete(String(input.viewId));
    deps.state.touch();
    return sendJson(res, 200, { status: 200 });
  }
  if (action === 'command') {
    const fields = buildSlashCommand(ctx, deps.command, typeof input.text === 'string' ? input.text : '');
    const result = await forward(formBody(fields));
    const reply = parseAck(result.body);
    // An app may answer a command in its ack body; show that like Slack does, to the caller only.
    if (reply && typeof reply.text === 'string') applyResponse(deps.state, fields.response_url?.split('/respond/')[1] ?? '', reply);
    return sendJson(res, 200, result);
  }
  sendJson(res, 404, { error: `unknown action ${action}` });
}

function parseAck(body: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = body ? JSON.parse(body) : undefined;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
