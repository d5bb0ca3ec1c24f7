import { webApi, LogLevel } from '@slack/bolt';

export type SlackWebClient = InstanceType<typeof webApi.WebClient>;

export interface SlackClientOptions {
  token: string;
  /** The Web API base, `https://slack.com/api/` or the sandbox's `/api/`. */
  apiUrl: string;
  /** Bounded retries for 5xx, network errors and 429 (each 429 first waits Retry-After). */
  retries?: number;
  minRetryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** A stalled Slack must not hold a job forever. */
  timeoutMs?: number;
}

/**
 * Options shared by every WebClient Medic builds, Bolt's included. The library default retries ten
 * times over half an hour, which would hold a job (and a test) for minutes; Medic bounds it and lets
 * the job queue retry a failed post later instead.
 */
export function slackClientOptions(options: Omit<SlackClientOptions, 'token'>): webApi.WebClientOptions {
  return {
    slackApiUrl: options.apiUrl,
    retryConfig: {
      retries: options.retries ?? 3,
      factor: 2,
      minTimeout: options.minRetryDelayMs ?? 1_000,
      maxTimeout: options.maxRetryDelayMs ?? 10_000,
      randomize: true,
    },
    // 429: the client pauses its queue for Retry-After, then retries within the budget above.
    rejectRateLimitedCalls: false,
    timeout: options.timeoutMs ?? 15_000,
    logLevel: LogLevel.ERROR,
  };
}

export function createSlackWebClient(options: SlackClientOptions): SlackWebClient {
  return new webApi.WebClient(options.token, slackClientOptions(options));
}
