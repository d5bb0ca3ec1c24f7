import { webApi, LogLevel } from '@slack/bolt';

export type SlackWebClient = InstanceType<typeof webApi.WebClient>;

export interface SlackClientOptions {
  token: string;
  /** The Web API base, `https://slack.com/api/` or the sandbox's `/api/`. */
  apiUrl: string;
  /**
   * Retries inside the client for 5xx, network errors and 429 (each 429 first waits Retry-After).
   * 0, the default, leaves every retry to Medic: a 429 is rejected at once with its Retry-After
   * and nothing runs in the background after the call returned.
   */
  retries?: number;
  minRetryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** A stalled Slack must not hold a job forever. */
  timeoutMs?: number;
}

/**
 * Options shared by every WebClient Medic builds, Bolt's included. The library default retries ten
 * times over half an hour, in the background of a call its caller may have given up on: a timed-out
 * post then lands twice, a timed-out update lands after a newer one. The card path therefore runs
 * with no client retries (the delivery job owns them); Bolt's interactive client keeps a small budget.
 */
export function slackClientOptions(options: Omit<SlackClientOptions, 'token'>): webApi.WebClientOptions {
  const retries = options.retries ?? 0;
  return {
    slackApiUrl: options.apiUrl,
    retryConfig: {
      retries,
      factor: 2,
      minTimeout: options.minRetryDelayMs ?? 1_000,
      maxTimeout: options.maxRetryDelayMs ?? 10_000,
      randomize: true,
    },
    // 429 with retries: the client pauses its queue for Retry-After, then retries within the budget
    // above. Without: rejected at once, Retry-After attached, for Medic's pacer and job to honour.
    rejectRateLimitedCalls: retries === 0,
    timeout: options.timeoutMs ?? 15_000,
    logLevel: LogLevel.ERROR,
  };
}

export function createSlackWebClient(options: SlackClientOptions): SlackWebClient {
  return new webApi.WebClient(options.token, slackClientOptions(options));
}
