import { z } from 'zod';
import { boolFrom, intFrom, optionalString, urlString } from '../env-helpers.js';

/**
 * Slack. Setting SLACK_BOT_TOKEN (with SLACK_SIGNING_SECRET) switches the real Slack app on when
 * MEDIC_CHAT=auto; without a token Medic starts the local Slack sandbox and points the same adapter
 * at it. SLACK_APP_TOKEN (xapp-…) selects Socket Mode instead of the HTTP receiver on PORT.
 * This shape is merged into the schema in src/config/schema.ts.
 */
export const slackEnv = {
  SLACK_BOT_TOKEN: optionalString,
  SLACK_SIGNING_SECRET: optionalString,
  SLACK_APP_TOKEN: optionalString,
  /** The Web API base; the sandbox and self-hosted proxies plug in here. */
  SLACK_API_URL: z.preprocess((v) => (v === '' || v === undefined ? 'https://slack.com/api/' : v), z.string().url()),
  /** A Slack user group id (S…) whose members may approve, in addition to MEDIC_APPROVERS. */
  MEDIC_APPROVER_GROUP: optionalString,
  /** Bounded retries for Slack 5xx and 429 (each 429 waits for Retry-After). */
  SLACK_RETRIES: intFrom(3, 0, 10),
  /** Where the local sandbox listens (0 picks a free port). */
  MEDIC_SANDBOX_PORT: intFrom(3001, 0, 65_535),
  /** Overrides the sandbox's view of Medic's events endpoint (default http://127.0.0.1:PORT/slack/events). */
  MEDIC_SANDBOX_EVENTS_URL: urlString,
  /**
   * The sandbox refuses to start beside a real code host (GitHub) or with NODE_ENV=production:
   * its page approves fixes for whoever reaches it. `true` starts it anyway; its users are then
   * never approvers unless MEDIC_APPROVERS names them.
   */
  MEDIC_SANDBOX_FORCE: boolFrom(false),
};

export const SlackEnvObject = z.object(slackEnv);
export type SlackEnv = z.infer<typeof SlackEnvObject>;

/** `auto` picks Slack when a bot token is set, otherwise the sandbox. */
export function isRealSlack(env: Pick<SlackEnv, 'SLACK_BOT_TOKEN'> & { MEDIC_CHAT: 'auto' | 'console' | 'slack' }): boolean {
  return env.MEDIC_CHAT === 'slack' || (env.MEDIC_CHAT === 'auto' && env.SLACK_BOT_TOKEN !== undefined);
}
