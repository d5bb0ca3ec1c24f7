import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import type { CallPacer } from '../../ports/chat-pacing.js';

// KEYS[1] the channel's recent calls (sorted set, score = ms), KEYS[2] its 429 hold (ms).
// ARGV: window ms, limit, limit for progress, member id. Redis's own clock, so every worker agrees.
// Returns 0 when the call may go now (and records it), else how long to wait before asking again.
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local held = tonumber(redis.call('GET', KEYS[2]) or '0')
if held > now then return held - now end
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window * 2)
  return 0
end
if count < tonumber(ARGV[2]) then return math.max(1, math.floor(window / tonumber(ARGV[2]))) end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(1, tonumber(oldest[2]) + window - now)`;

// KEYS[1] the hold. ARGV: ms. Never shortens a hold already longer.
const HOLD = `
local t = redis.call('TIME')
local until_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[1])
if until_ms > tonumber(redis.call('GET', KEYS[1]) or '0') then redis.call('SET', KEYS[1], until_ms, 'PX', tonumber(ARGV[1]) + 1000) end
return 0`;

export interface PacerOptions {
  /** Calls per second per channel, across every worker (Slack's limit is about one). */
  callsPerSecond: number;
  /** A call waits this long at most for its turn; beyond, its job is retried when the turn comes. */
  maxWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A sliding window per channel, in Redis so every worker shares it: a call goes out only while
 * fewer than the limit went out in the last window, counted when it is actually sent (a worker that
 * woke late never sends on a stale reservation). The window is 10% longer than a second, so network
 * jitter never lets the limit's worth of calls land inside one second. Progress gets only half the
 * window (at least one call into an idle one): posts and final states keep the rest. A 429 holds
 * the channel for its Retry-After.
 */
export function createRedisCallPacer(redis: Redis, prefix: string, options: PacerOptions): CallPacer {
  const sleep = options.sleep ?? defaultSleep;
  const windowMs = 1_100;
  const limit = options.callsPerSecond;
  const progressLimit = Math.max(1, Math.floor(limit / 2));
  const maxWaitMs = options.maxWaitMs ?? 2_000;
  const keys = (channel: string) => [`${prefix}slack:pace:{${channel}}`, `${prefix}slack:hold:{${channel}}`];
  return {
    async take(channel, priority) {
      const started = Date.now();
      for (;;) {
        const wait = Number(await redis.eval(TAKE, 2, ...keys(channel), windowMs, limit, priority === 'progress' ? progressLimit : limit, randomUUID()));
        if (wait === 0) return;
        const waited = Date.now() - started;
        if (priority === 'progress' || waited + wait > maxWaitMs) {
          throw new MedicError(ErrorCode.UpstreamUnavailable, `Slack channel ${channel} is busy for ${wait} ms (paced to ${limit}/s); the call waits its turn.`, {
            transient: true,
            retryAfterMs: wait,
            upstreamCode: priority === 'progress' ? 'paced_progress' : 'paced',
          });
        }
        await sleep(wait);
      }
    },
    async hold(channel, retryAfterMs) {
      await redis.eval(HOLD, 1, keys(channel)[1] ?? '', Math.max(1, Math.round(retryAfterMs)));
    },
  };
}
