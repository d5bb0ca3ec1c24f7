import { isLoopbackHost, remoteLocation } from '../domain/git/remote-trust.js';
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

/** A remote on another machine: any network URL but a loopback one (a local path or loopback server is the sandbox's own). */
function isRealRemote(remote: string | undefined): boolean {
  const where = remote ? remoteLocation(remote) : undefined;
  return where !== undefined && !isLoopbackHost(where.host);
}

/** What makes a sandbox approval a real one: a real code host, or a production deployment. */
function realDeployment(config: Config): string[] {
  return [
    ...(config.NODE_ENV === 'production' ? ['NODE_ENV=production'] : []),
    ...(config.GITHUB_REPOSITORY || config.GITHUB_TOKEN || config.GITHUB_APP_ID ? ['GitHub is configured (GITHUB_REPOSITORY / GITHUB_TOKEN / GITHUB_APP_ID)'] : []),
    ...(config.GIT_TOKEN || config.MEDIC_GIT_TOKENS ? ['git credentials are configured (GIT_TOKEN / MEDIC_GIT_TOKENS)'] : []),
    ...(isRealRemote(config.MEDIC_REPO_REMOTE) ? [`MEDIC_REPO_REMOTE names a real remote (${remoteLocation(config.MEDIC_REPO_REMOTE ?? '')?.host ?? '?'})`] : []),
  ];
}

/** Why the sandbox must not start here, or undefined when it may (or is not wanted). */
export function sandboxRefusal(config: Config): string | undefined {
  const reasons = realDeployment(config);
  if (chatMode(config) !== 'sandbox' || config.MEDIC_SANDBOX_FORCE || reasons.length === 0) return undefined;
  return `Slack is not configured (SLACK_BOT_TOKEN is unset), so Medic would start its local Slack sandbox, whose page approves fixes for anyone who reaches it — but ${reasons.join(' and ')}. Configure Slack (SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET), or set MEDIC_CHAT=console, or MEDIC_SANDBOX_FORCE=true to run the sandbox anyway.`;
}

/** The sandbox's own people approve only on a purely local Medic, never beside real services. */
function sandboxUsersApprove(config: Config): boolean {
  return chatMode(config) === 'sandbox' && realDeployment(config).length === 0;
}

/** Approvers: the configured ids and group, plus the sandbox's approver on a local sandbox. */
export function approverIds(config: Config): string[] {
  const sandbox = sandboxUsersApprove(config) ? SANDBOX_APPROVERS : [];
  const group = config.MEDIC_APPROVER_GROUP ? [`group:${config.MEDIC_APPROVER_GROUP}`] : [];
  return [...config.MEDIC_APPROVERS, ...sandbox, ...group];
}

/** Elevated approvers: the configured ones, plus the sandbox's elevated user on a local sandbox. */
export function elevatedIds(config: Config): string[] {
  return [...config.MEDIC_ELEVATED_APPROVERS, ...(sandboxUsersApprove(config) ? SANDBOX_ELEVATED : [])];
}
