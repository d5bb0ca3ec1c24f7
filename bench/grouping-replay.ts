/**
 * Replays one Loghub-2k system through Medic's real ingest path — the template miner persisted
 * in Redis between polls, the Lua ingest script, the hourly caps — as ERROR events of one
 * service, and reports which incident every line ended in.
 */
import type { Redis } from 'ioredis';
import { createIncidentStore } from '../src/adapters/redis/incident-store.js';
import { createTemplateSnapshotStore } from '../src/adapters/redis/template-snapshot-store.js';
import { deleteByPrefix } from '../src/adapters/redis/connect.js';
import type { ErrorEvent } from '../src/domain/event.js';
import type { StormSettings } from '../src/domain/storm-policy.js';
import { createTemplateMiner } from '../src/domain/templates/template-miner.js';
import type { MinerOptions } from '../src/domain/templates/miner-options.js';
import { ingestEvents } from '../src/use-cases/ingest-events.js';
import type { LoghubRow } from './loghub.js';

/** Lines per poll: the miner is restored from and saved to Redis between polls, as the poll job does. */
const POLL_SIZE = 250;
const HOUR_START = Date.UTC(2026, 0, 5, 10, 0, 0);

export interface ReplayOutcome {
  /** The incident each line ended in after every merge ('' when held). */
  incidents: string[];
  /** Incidents that are the hour's overflow rather than a family's own. */
  overflow: Set<string>;
}

export type StormCaps = Pick<StormSettings, 'open' | 'rules' | 'maxNewPerHour' | 'maxNewPerServiceHour'>;

export async function replaySystem(
  redis: Redis,
  prefix: string,
  system: string,
  rows: LoghubRow[],
  options: { miner?: Partial<MinerOptions>; storm?: StormCaps },
): Promise<ReplayOutcome> {
  const store = createIncidentStore(redis, prefix);
  const snapshots = createTemplateSnapshotStore(redis, prefix);
  const events: ErrorEvent[] = rows.map((row, i) => ({
    id: `${system}:${i}`,
    source: 'loghub',
    time: new Date(HOUR_START + i * 1000).toISOString(),
    service: system.toLowerCase(),
    severity: 'error',
    message: row.content,
    raw: row.content,
    correlationIds: {},
    fields: {},
  }));
  const byEvent = new Map<string, string>();
  const clock = () => new Date(HOUR_START + 60_000);
  try {
    for (let i = 0; i < events.length; i += POLL_SIZE) {
      const miner = createTemplateMiner(options.miner, await snapshots.load());
      await ingestEvents(events.slice(i, i + POLL_SIZE), {
        store,
        miner,
        clock,
        storm: options.storm,
        enqueueAnalysis: async () => undefined,
        onIngested: (_status, incidentId, event) => byEvent.set(event.id, incidentId),
      });
      await snapshots.save(miner.snapshot());
    }
    const incidents = await Promise.all(events.map(async (e) => {
      const id = byEvent.get(e.id) ?? '';
      return id === '' ? '' : store.resolve(id);
    }));
    const overflow = new Set<string>();
    for (const id of new Set(incidents)) {
      if (id !== '' && (await store.get(id))?.fingerprint.startsWith('overflow:')) overflow.add(id);
    }
    return { incidents, overflow };
  } finally {
    await deleteByPrefix(redis, prefix);
  }
}
