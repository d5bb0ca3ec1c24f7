import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { RedisClient } from '../src/adapters/redis/connect.js';
import { z } from 'zod';
import { drainAuditStream } from '../src/adapters/redis/audit-cursor.js';
import { withRedisLock } from '../src/adapters/redis/redis-lock.js';
import type { JobDefinition } from '../src/queue/job-definition.js';

export interface ArchiveAuditDeps {
  redis: RedisClient;
  prefix: string;
  /** MEDIC_AUDIT_ARCHIVE_FILE: appended to, one JSON object a line. */
  file: string;
  batch: number;
}

const Payload = z.object({}).passthrough();

/**
 * Copies the audit stream to a JSON-lines file before `MAXLEN ~` trims it, for a team that keeps
 * its audit history on disk (or ships the file with its own log agent). Like the HEC forwarder, a
 * cursor (the last stream id written) advances only after the lines are appended, so delivery is
 * at least once: a worker killed between the two writes the last batch again, and each line
 * carries its stream id (`id`) for a reader to drop the repeat.
 */
export function createArchiveAuditJob(deps: ArchiveAuditDeps): JobDefinition<z.infer<typeof Payload>> {
  return {
    queue: 'archive-audit',
    schema: Payload,
    attempts: 1,
    backoffMs: 1_000,
    concurrency: 1,
    perform: async () => {
      await archiveAudit(deps);
    },
  };
}

export async function archiveAudit(deps: ArchiveAuditDeps): Promise<number> {
  const cursorKey = `${deps.prefix}archive:cursor`;
  return withRedisLock(deps.redis, `${deps.prefix}lock:archive`, async () => {
    await mkdir(dirname(deps.file), { recursive: true });
    return drainAuditStream(deps.redis, deps.prefix, cursorKey, deps.batch, async (rows) => {
      const lines = rows.map(({ id, json }) => JSON.stringify({ id, ...(JSON.parse(json) as Record<string, unknown>) }));
      await appendFile(deps.file, `${lines.join('\n')}\n`, { mode: 0o600 });
    });
  }, { waitMs: 60_000 });
}
