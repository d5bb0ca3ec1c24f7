import type { RedisClient } from './connect.js';
import type { FailureLinks } from '../../ports/failure-links.js';

/** As long as a closed incident is remembered as its family's predecessor. */
const HOLDER_TTL_MS = 30 * 86_400_000;

/**
 * KEYS: 1 same-failure:<signature>
 * ARGV: 1 incidentId, 2 holder to replace ('' for none), 3 ttl ms
 * Returns the holder after the call. One key, so it runs on a Redis Cluster as it is.
 */
const CLAIM = `
local holder = redis.call('GET', KEYS[1])
if (not holder) or holder == ARGV[1] or (ARGV[2] ~= '' and holder == ARGV[2]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
  return ARGV[1]
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return holder
`;

/** The failure-signature holders, one Redis key per signature, beside the incident records. */
export function createRedisFailureLinks(redis: RedisClient, prefix: string): FailureLinks {
  return {
    async claim(signature, incidentId, replacing = '') {
      return (await redis.eval(CLAIM, 1, `${prefix}same-failure:${signature}`, incidentId, replacing, HOLDER_TTL_MS)) as string;
    },
  };
}
