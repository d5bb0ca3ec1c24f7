/**
 * One running Medic Slack stack on loopback: the sandbox (Slack's Web API + page), the real Bolt
 * app in HTTP mode, the real chat adapter and authority over @slack/web-api, and the fake use-cases.
 */
import { createSlackApp, type SlackAppHandle } from '../../../src/adapters/slack/create-slack-app.js';
import { createSlackUserGroups } from '../../../src/adapters/slack/slack-user-groups.js';
import { createConfiguredAuthority } from '../../../src/gateway/authority/authority.js';
import { createSlackChat } from '../../../src/adapters/slack/slack-chat.js';
import { createSlackWebClient } from '../../../src/adapters/slack/web-client.js';
import type { AuditLog } from '../../../src/ports/audit.js';
import type { Chat } from '../../../src/ports/chat.js';
import type { ActionCommands } from '../../../src/use-cases/run-action.js';
import { createSlackSandbox, type SlackSandbox } from '../../../src/sandbox/create-slack-sandbox.js';
import { SANDBOX_APPROVER_GROUP, SANDBOX_BOT } from '../../../src/sandbox/sandbox-users.js';
import { FakeIncidentCommands } from './fake-incident-commands.js';

export const SIGNING_SECRET = 'test-signing-secret-0123456789abcdef';
export const BOT_TOKEN = 'xoxb-test-0000000000-medic';

export interface SlackHarness {
  sandbox: SlackSandbox;
  slack: SlackAppHandle;
  eventsUrl: string;
  chat: Chat;
  commands: FakeIncidentCommands;
  close(): Promise<void>;
}

/** `actions` builds the card's action use-cases over the harness's chat (tests of the action buttons). */
export async function startSlackHarness(options: { approvers?: string[]; actions?: (chat: Chat) => ActionCommands; audit?: AuditLog } = {}): Promise<SlackHarness> {
  let eventsUrl = '';
  const sandbox = await createSlackSandbox({ port: 0, signingSecret: SIGNING_SECRET, botToken: BOT_TOKEN, medicEventsUrl: () => eventsUrl });
  const client = createSlackWebClient({ token: BOT_TOKEN, apiUrl: sandbox.apiUrl, retries: 2, minRetryDelayMs: 10, maxRetryDelayMs: 50 });
  // Approval by group membership: the sandbox's approver group holds Alice (U0APPROVER) only.
  const authority = createConfiguredAuthority({ approvers: [...(options.approvers ?? []), `group:${SANDBOX_APPROVER_GROUP}`], elevatedApprovers: [], userGroups: createSlackUserGroups(client) });
  const chat = createSlackChat({ client, channel: 'incidents' });
  const commands = new FakeIncidentCommands({ authority, chat });
  const slack = createSlackApp({
    botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET, apiUrl: sandbox.apiUrl, port: 0, host: '127.0.0.1',
    commands, authority, ...(options.actions ? { actions: options.actions(chat) } : {}), ...(options.audit ? { audit: options.audit } : {}), retries: 2, botId: SANDBOX_BOT.botId, botUserId: SANDBOX_BOT.userId,
  });
  eventsUrl = (await slack.start()).eventsUrl ?? '';
  return {
    sandbox, slack, eventsUrl, chat, commands,
    async close() {
      await slack.stop();
      await sandbox.close();
    },
  };
}
