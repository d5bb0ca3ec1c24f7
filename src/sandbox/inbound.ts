import { randomUUID } from 'node:crypto';
import type { SandboxState } from './sandbox-state.js';
import { SANDBOX_BOT, SANDBOX_TEAM, type SandboxUser } from './sandbox-users.js';

/**
 * Builders for what Slack sends an app: block_actions and view_submission payloads (as documented
 * at docs.slack.dev/reference/interaction-payloads) and slash command form fields. Each gets a
 * fresh trigger_id and a response_url on the sandbox.
 */
export interface InboundContext {
  state: SandboxState;
  baseUrl: string;
  user: SandboxUser;
}

function responseUrl(ctx: InboundContext, messageTs?: string): string {
  const token = randomUUID();
  ctx.state.addResponseUrl(token, { userId: ctx.user.id, channel: ctx.state.channel.id, ...(messageTs ? { messageTs } : {}) });
  return `${ctx.baseUrl}/respond/${token}`;
}

const slackUser = (u: SandboxUser) => ({ id: u.id, username: u.name, name: u.name, team_id: SANDBOX_TEAM.id });

export function buildBlockActions(ctx: InboundContext, click: { messageTs: string; blockId: string; actionId: string; value?: string }): Record<string, unknown> | undefined {
  const message = ctx.state.messages.find((m) => m.ts === click.messageTs);
  if (!message) return undefined;
  const ephemeral = message.ephemeralFor !== undefined;
  const element = findElement(message.blocks, click.blockId, click.actionId);
  return {
    type: 'block_actions',
    user: slackUser(ctx.user),
    api_app_id: SANDBOX_BOT.appId,
    token: 'sandbox-verification-token',
    container: { type: 'message', message_ts: message.ts, channel_id: message.channel, is_ephemeral: ephemeral },
    trigger_id: ctx.state.newTrigger(ctx.user.id),
    team: SANDBOX_TEAM,
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: ctx.state.channel.id, name: ctx.state.channel.name },
    // Slack omits `message` for ephemeral messages; listeners must use `container`.
    ...(ephemeral ? {} : { message: { type: 'message', ts: message.ts, text: message.text, blocks: message.blocks, user: message.user, bot_id: message.botId } }),
    state: { values: {} },
    response_url: responseUrl(ctx, message.ts),
    actions: [{ type: 'button', block_id: click.blockId, action_id: click.actionId, text: element?.text, value: click.value ?? element?.value, ...(element?.style ? { style: element.style } : {}), action_ts: (Date.now() / 1000).toFixed(6) }],
  };
}

function findElement(blocks: unknown[], blockId: string, actionId: string): { text?: unknown; value?: string; style?: string } | undefined {
  for (const block of blocks as { block_id?: string; elements?: { action_id?: string; text?: unknown; value?: string; style?: string }[] }[]) {
    if (block.block_id !== blockId) continue;
    return block.elements?.find((e) => e.action_id === actionId);
  }
  return undefined;
}

export function buildViewSubmission(ctx: InboundContext, viewId: string, values: Record<string, Record<string, string>>): Record<string, unknown> | undefined {
  const open = ctx.state.views.get(viewId);
  if (!open || open.userId !== ctx.user.id) return undefined;
  const stateValues = Object.fromEntries(Object.entries(values).map(([blockId, inputs]) => [blockId, Object.fromEntries(Object.entries(inputs).map(([actionId, value]) => [actionId, { type: 'plain_text_input', value }]))]));
  return {
    type: 'view_submission',
    team: SANDBOX_TEAM,
    user: slackUser(ctx.user),
    api_app_id: SANDBOX_BOT.appId,
    token: 'sandbox-verification-token',
    trigger_id: ctx.state.newTrigger(ctx.user.id),
    is_enterprise_install: false,
    enterprise: null,
    view: { ...open.view, id: open.id, team_id: SANDBOX_TEAM.id, app_id: SANDBOX_BOT.appId, bot_id: SANDBOX_BOT.botId, hash: open.hash, root_view_id: open.id, previous_view_id: null, state: { values: stateValues } },
    response_urls: [],
  };
}

export function buildSlashCommand(ctx: InboundContext, command: string, text: string): Record<string, string> {
  return {
    token: 'sandbox-verification-token',
    team_id: SANDBOX_TEAM.id,
    team_domain: SANDBOX_TEAM.domain,
    channel_id: ctx.state.channel.id,
    channel_name: ctx.state.channel.name,
    user_id: ctx.user.id,
    user_name: ctx.user.name,
    command,
    text,
    api_app_id: SANDBOX_BOT.appId,
    is_enterprise_install: 'false',
    response_url: responseUrl(ctx),
    trigger_id: ctx.state.newTrigger(ctx.user.id),
  };
}

/** What an app posts to a response_url: ephemeral by default, in_channel, or replacing the source. */
export function applyResponse(state: SandboxState, token: string, body: Record<string, unknown>): boolean {
  const target = state.responseUrls.get(token);
  if (!target) return false;
  const text = typeof body.text === 'string' ? body.text : '';
  const blocks = Array.isArray(body.blocks) ? body.blocks : [];
  const source = target.messageTs ? state.find(target.messageTs) : undefined;
  if (source && body.delete_original === true) {
    state.remove(source);
  } else if (source && body.replace_original === true) {
    Object.assign(source, { text, blocks, edited: true });
    state.edited(source);
  } else if (body.response_type === 'in_channel') {
    state.add({ channel: target.channel, user: SANDBOX_BOT.userId, botId: SANDBOX_BOT.botId, text, blocks });
    return true;
  } else {
    state.add({ channel: target.channel, user: SANDBOX_BOT.userId, botId: SANDBOX_BOT.botId, text, blocks, ephemeralFor: target.userId });
    return true;
  }
  state.touch();
  return true;
}
