import type { Redis } from 'ioredis';

/** Operator decisions that hold for future events: which fingerprint joins which, which family splits by what. */
export interface GroupingDecisions {
  aliases: Map<string, string>;
  splits: Map<string, string>;
}

export const decisionKeys = (prefix: string) => ({ aliases: `${prefix}grouping:fingerprint-alias`, splits: `${prefix}grouping:split` });

export async function loadGroupingDecisions(redis: Redis, prefix: string): Promise<GroupingDecisions> {
  const keys = decisionKeys(prefix);
  const [aliases, splits] = await Promise.all([redis.hgetall(keys.aliases), redis.hgetall(keys.splits)]);
  return { aliases: new Map(Object.entries(aliases)), splits: new Map(Object.entries(splits)) };
}

