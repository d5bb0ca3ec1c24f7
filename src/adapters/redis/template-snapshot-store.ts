import type { RedisClient } from './connect.js';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import { MinerSnapshot } from '../../domain/templates/miner-snapshot.js';

/** Keeps the template miner's state across restarts, so a family keeps its group id. */
export interface TemplateSnapshotStore {
  load(): Promise<MinerSnapshot | undefined>;
  save(snapshot: MinerSnapshot): Promise<void>;
}

export function createTemplateSnapshotStore(redis: RedisClient, prefix: string): TemplateSnapshotStore {
  const key = `${prefix}templates:snapshot`;
  return {
    async load() {
      const raw = await redis.get(key);
      if (raw === null) return undefined;
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch (cause) {
        throw invalid(key, 'it is not JSON', cause);
      }
      const result = MinerSnapshot.safeParse(parsed);
      if (!result.success) throw invalid(key, result.error.issues[0]?.message ?? 'unknown shape', result.error);
      return result.data;
    },
    async save(snapshot) {
      // One SET: a reader sees the old snapshot or the new one, never a mix.
      await redis.set(key, JSON.stringify(snapshot));
    },
  };
}

function invalid(key: string, reason: string, cause: unknown): MedicError {
  return new MedicError(
    ErrorCode.ValidationFailed,
    `The template snapshot in Redis key ${key} is unreadable (${reason}): delete the key to start with fresh group ids`,
    { cause },
  );
}
