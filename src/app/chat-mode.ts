import { randomBytes } from 'node:crypto';
import { isRealSlack } from '../config/sections/slack.js';
import type { Config } from '../config/schema.js';
import { SANDBOX_APPROVERS, SANDBOX_ELEVATED } from '../sandbox/sandbox-users.js';

export type ChatMode = 'console' | 'slack' | 'sandbox';

/** Slack when a bot token is configured, the local sandbox otherwise, the console on request. */
export function chatMode(config: Config): ChatMode {
  if (config.MEDIC_CHAT === 'console') return 'console';
  return isRealSlack(config) ? 'slack' : 'sandbox';
}

// The sandbox's bot token is no secret: it only opens the loopback sandbox's own Web API.
const SANDBOX_BOT_TOKEN = 'xoxb-medic-local-sandbox';

export interface SlackSettings {
  botToken: string;
  signingSecret: string;
  appToken?: string;
  apiUrl: string;
}

/** The Slack credentials and API base for the chosen mode; the sandbox signs with a fresh secret. */
export function slackSettings(config: Config, sandboxApiUrl?: string): SlackSettings {
  if (chatMode(config) === 'sandbox') {
    return {
      botToken: SANDBOX_BOT_TOKEN,
      signingSecret: randomBytes(24).toString('hex'),
      apiUrl: sandboxApiUrl ?? `http://127.0.0.1:${config.MEDIC_SANDBOX_PORT}/api/`,
    };
  }
  return { botToken: config.SLACK_BOT_TOKEN ?? '', signingSecret: config.SLACK_SIGNING_SECRET ?? '', appToken: config.SLACK_APP_TOKEN, apiUrl: config.SLACK_API_URL };
}

/** Approvers: the configured ids and group, plus the sandbox's approver when Medic runs on the sandbox. */
export function approverIds(config: Config): string[] {
  const sandbox = chatMode(config) === 'sandbox' ? SANDBOX_APPROVERS : [];
  const group = config.MEDIC_APPROVER_GROUP ? [`group:${config.MEDIC_APPROVER_GROUP}`] : [];
  return [...config.MEDIC_APPROVERS, ...sandbox, ...group];
}

/** Elevated approvers: the configured ones, plus the sandbox's elevated user on the sandbox. */
export function elevatedIds(config: Config): string[] {
  return [...config.MEDIC_ELEVATED_APPROVERS, ...(chatMode(config) === 'sandbox' ? SANDBOX_ELEVATED : [])];
}
