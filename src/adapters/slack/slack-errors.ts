import { ErrorCode, MedicError } from '../../domain/errors.js';

/** Platform errors the operator can fix, with the next step. */
const HINTS: Record<string, (channel: string) => string> = {
  channel_not_found: (c) => `Slack says channel_not_found for "${c}": check MEDIC_SLACK_CHANNEL names a channel the bot can see (use the channel id, C…).`,
  not_in_channel: (c) => `Slack says not_in_channel: invite the bot to "${c}" (/invite @Medic) or check MEDIC_SLACK_CHANNEL.`,
  is_archived: (c) => `Slack says is_archived: channel "${c}" is archived; set MEDIC_SLACK_CHANNEL to a live channel.`,
  invalid_auth: () => 'Slack says invalid_auth: check SLACK_BOT_TOKEN (a bot token, xoxb-…) and SLACK_API_URL.',
  not_authed: () => 'Slack says not_authed: set SLACK_BOT_TOKEN.',
  token_revoked: () => 'Slack says token_revoked: reinstall the app and update SLACK_BOT_TOKEN.',
  account_inactive: () => 'Slack says account_inactive: the app was removed; reinstall it and update SLACK_BOT_TOKEN.',
  missing_scope: () => 'Slack says missing_scope: add the scopes in slack-app-manifest.yaml to the app and reinstall it.',
  invalid_blocks: () => 'Slack rejected the card (invalid_blocks); this is a Medic bug — report it with the incident id.',
  msg_blocks_too_long: () => 'Slack rejected the card as too long (msg_blocks_too_long); this is a Medic bug — report it.',
};

const RETRYABLE = new Set(['ratelimited', 'internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);

interface SlackLikeError {
  code?: string;
  data?: { error?: string; needed?: string };
  statusCode?: number;
  message?: string;
  retryAfter?: number;
  original?: { code?: string };
}


/**
 * Turns a @slack/web-api error into a coded MedicError. Operator mistakes (auth, channel, scopes)
 * fail fast with the fix; outages and rate limits are transient so the job retries the post.
 * The original error is deliberately not kept as `cause`: axios errors hold the request config,
 * Authorization header included, and a logged cause would leak the bot token.
 */
export function toSlackError(error: unknown, method: string, channel = ''): MedicError {
  if (error instanceof MedicError) return error;
  const e = (error ?? {}) as SlackLikeError;
  if (e.code === 'slack_webapi_platform_error') {
    const platform = e.data?.error ?? 'unknown_error';
    const hint = HINTS[platform];
    const needed = platform === 'missing_scope' && e.data?.needed ? ` (needed: ${e.data.needed})` : '';
    if (hint) return new MedicError(ErrorCode.UpstreamRejected, hint(channel) + needed, { upstreamCode: platform });
    return new MedicError(RETRYABLE.has(platform) ? ErrorCode.UpstreamUnavailable : ErrorCode.UpstreamRejected, `Slack ${method} failed: ${platform}.`, {
      transient: RETRYABLE.has(platform),
      upstreamCode: platform,
    });
  }
  if (e.code === 'slack_webapi_rate_limited_error' || /rate limit/i.test(e.message ?? '')) {
    const retryAfterMs = typeof e.retryAfter === 'number' ? e.retryAfter * 1000 : undefined;
    return new MedicError(ErrorCode.UpstreamUnavailable, `Slack rate-limited ${method}${retryAfterMs === undefined ? '' : ` (Retry-After ${retryAfterMs / 1000} s)`}; the job will retry.`, {
      transient: true,
      upstreamCode: 'ratelimited',
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  }
  if (e.code === 'slack_webapi_http_error') {
    return new MedicError(ErrorCode.UpstreamUnavailable, `Slack ${method} answered HTTP ${e.statusCode ?? '?'}; the job will retry.`, { transient: true, upstreamCode: `http_${e.statusCode ?? '?'}` });
  }
  if (e.original?.code === 'ECONNABORTED' || e.original?.code === 'ETIMEDOUT') {
    // The request may have reached Slack: a post is looked up by its key before it is sent again.
    return new MedicError(ErrorCode.UpstreamUnavailable, `Slack ${method} timed out; outcome unknown, the job will look before it retries.`, { transient: true, upstreamCode: 'timeout' });
  }
  return new MedicError(ErrorCode.UpstreamUnavailable, `Slack ${method} could not be reached (check SLACK_API_URL and the network).`, { transient: true });
}

/** Runs one Web API call, mapping failures to coded errors. */
export async function callSlack<T>(method: string, channel: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toSlackError(error, method, channel);
  }
}
