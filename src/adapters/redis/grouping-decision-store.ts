import type { RedisClient } from './connect.js';
import type { GroupingDecisions } from '../../ports/incident-store.js';

export const decisionKeys = (prefix: string) => ({ aliases: `${prefix}grouping:fingerprint-alias`, splits: `${prefix}grouping:split` });

export async function loadGroupingDecisions(redis: RedisClient, prefix: string): Promise<GroupingDecisions> {
  const keys = decisionKeys(prefix);
  const [aliases, splits] = await Promise.all([redis.hgetall(keys.aliases), redis.hgetall(keys.splits)]);
  return { aliases: new Map(Object.entries(aliases)), splits: new Map(Object.entries(splits)) };
}

