import type { RedisClient } from './connect.js';
import { z } from 'zod';
import type { OverflowFamily } from '../../ports/incident-store.js';
import { displayTitle } from '../../domain/display-title.js';

const Info = z.object({ service: z.string(), title: z.string() });
const Sample = z.object({ message: z.string() });

/** The message of the family's first event as the ingest kept it; '' when it kept none. */
function sampleMessage(json: string | null | undefined): string {
  try {
    return Sample.parse(JSON.parse(json || 'null')).message;
  } catch {
    return '';
  }
}
/** Families read to name the services; the card lists fewer. */
const MAX_READ = 500;

/** The families of an overflow incident, by weighted volume, from what the ingest script keeps. */
export async function listOverflowFamilies(redis: RedisClient, prefix: string, overflowFingerprint: string, limit = MAX_READ): Promise<OverflowFamily[]> {
  const rows = await redis.zrevrange(`${prefix}${overflowFingerprint}:volume`, 0, Math.min(limit, MAX_READ) - 1, 'WITHSCORES');
  if (rows.length === 0) return [];
  const fingerprints = rows.filter((_, i) => i % 2 === 0);
  const fields = fingerprints.flatMap((fp) => [fp, `${fp}:count`, `${fp}:event`]);
  const values = await redis.hmget(`${prefix}${overflowFingerprint}:info`, ...fields);
  return fingerprints.flatMap((fingerprint, i) => {
    let info: z.infer<typeof Info> | undefined;
    try {
      info = Info.parse(JSON.parse(values[i * 3] ?? 'null'));
    } catch {
      return [];
    }
    // The family's title with its first event's values (the template alone would show `<*>`).
    const title = displayTitle(info.title, [sampleMessage(values[i * 3 + 2])]);
    return [{ fingerprint, ...info, title, count: Number(values[i * 3 + 1] ?? 0), volume: Number(rows[i * 2 + 1]) }];
  });
}
