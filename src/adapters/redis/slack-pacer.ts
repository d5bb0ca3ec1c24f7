import type { RedisClient } from './connect.js';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import type { CallPacer } from '../../ports/chat-pacing.js';

// KEYS[1] the channel's last call (ms), KEYS[2] its 429 hold (ms). ARGV: interval ms, the idle
// time a progress call needs. Redis's own clock, so every worker agrees. Returns 0 when the call may
// go now (and records it), else how long to wait before asking again.
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local held = tonumber(redis.call('GET', KEYS[2]) or '0')
if held > now then return held - now end
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
local idle = now - last
if idle < tonumber(ARGV[2]) then return math.max(1, tonumber(ARGV[2]) - idle) end
redis.call('SET', KEYS[1], now, 'PX', tonumber(ARGV[1]) * 4 + 1000)
return 0`;

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
 * Evenly spaced calls per channel, in Redis so every worker shares it: a call goes out only when the
 * channel's last call is one interval old, checked when it is actually sent (a worker that woke late
 * never sends on a stale reservation). Even spacing, not bursts, and an interval 10% longer than
 * 1/limit: a burst sent at once can arrive bunched with the next one when the first calls of a
 * process are slow to leave it, which would put more than the limit inside one second. Progress
 * needs the channel idle for two intervals, so posts and final states, retrying every interval, keep
 * the slots. A 429 holds the channel for its Retry-After.
 */
export function createRedisCallPacer(redis: RedisClient, prefix: string, options: PacerOptions): CallPacer {
  const sleep = options.sleep ?? defaultSleep;
  const limit = options.callsPerSecond;
  const intervalMs = Math.ceil(1_100 / limit);
  const maxWaitMs = options.maxWaitMs ?? 2_000;
  const keys = (channel: string) => [`${prefix}slack:pace:{${channel}}`, `${prefix}slack:hold:{${channel}}`];
  return {
    async take(channel, priority) {
      const started = Date.now();
      for (;;) {
        const wait = Number(await redis.eval(TAKE, 2, ...keys(channel), intervalMs, priority === 'progress' ? 2 * intervalMs : intervalMs));
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
