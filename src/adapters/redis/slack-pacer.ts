import type { Redis } from 'ioredis';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import type { CallPacer } from '../../ports/chat-pacing.js';

// KEYS[1] the channel's next free slot (ms). ARGV: now, interval, max wait, progress (1|0).
// A granted call reserves the slot and returns its wait (>= 0); a refused one returns -(wait) - 1.
const TAKE = `
local now = tonumber(ARGV[1])
local slot = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'))
local wait = slot - now
if (ARGV[4] == '1' and wait > 0) or wait > tonumber(ARGV[3]) then return -wait - 1 end
redis.call('SET', KEYS[1], slot + tonumber(ARGV[2]), 'PX', wait + tonumber(ARGV[2]) + 60000)
return wait`;

// KEYS[1] as above. ARGV: now, hold (ms). Pushes the next slot out to now + hold, never earlier.
const HOLD = `
local until_ms = tonumber(ARGV[1]) + tonumber(ARGV[2])
local slot = tonumber(redis.call('GET', KEYS[1]) or '0')
if until_ms > slot then redis.call('SET', KEYS[1], until_ms, 'PX', tonumber(ARGV[2]) + 60000) end
return 0`;

export interface PacerOptions {
  /** Calls per second per channel, across every worker (Slack's limit is about one). */
  callsPerSecond: number;
  /** A call waits this long at most for its slot; beyond, its job is retried when the slot comes. */
  maxWaitMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The channel's call schedule, in Redis so every worker shares it: each call reserves the next slot
 * one interval after the last. The interval keeps a 10% margin under the configured rate, so the
 * jitter of a real network never lets two calls land inside one interval. Clocks are the workers'
 * own: keep them in NTP sync, as any BullMQ deployment does.
 */
export function createRedisCallPacer(redis: Redis, prefix: string, options: PacerOptions): CallPacer {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const intervalMs = Math.ceil((1000 / options.callsPerSecond) * 1.1);
  const maxWaitMs = options.maxWaitMs ?? 2_000;
  const key = (channel: string) => `${prefix}slack:pace:{${channel}}`;
  return {
    async take(channel, priority) {
      const granted = Number(await redis.eval(TAKE, 1, key(channel), now(), intervalMs, maxWaitMs, priority === 'progress' ? 1 : 0));
      if (granted >= 0) {
        if (granted > 0) await sleep(granted);
        return;
      }
      const wait = -granted - 1;
      throw new MedicError(ErrorCode.UpstreamUnavailable, `Slack channel ${channel} is busy for ${wait} ms (paced to ${options.callsPerSecond}/s); the call waits its turn.`, {
        transient: true,
        retryAfterMs: Math.max(wait, intervalMs),
        upstreamCode: priority === 'progress' ? 'paced_progress' : 'paced',
      });
    },
    async hold(channel, retryAfterMs) {
      await redis.eval(HOLD, 1, key(channel), now(), Math.max(0, Math.round(retryAfterMs)));
    },
  };
}
