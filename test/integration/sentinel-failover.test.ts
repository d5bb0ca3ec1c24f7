import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Medic } from '../../src/app/create-medic.js';
import { cardsDelivered, createWorld, type World } from '../support/medic-world.js';
import { startRedisSentinel, type TestRedisSentinel } from '../support/redis-sentinel.js';

let sentinel: TestRedisSentinel;
let world: World | undefined;
beforeAll(async () => void (sentinel = await startRedisSentinel()), 60_000);
afterAll(async () => sentinel.stop());
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const BASE = Date.parse('2026-11-30T09:00:00.000Z');
const EVENTS_PER_FAMILY = 3;

/** `families` failure families, each its own service (so its own incident), three errors each. */
function familyLines(from: number, families: number): string {
  const lines: string[] = [];
  for (let f = from; f < from + families; f++) {
    for (let e = 0; e < EVENTS_PER_FAMILY; e++) {
      lines.push(JSON.stringify({
        time: new Date(BASE + f * 60_000 + e * 1_000).toISOString(), level: 'ERROR', service: `svc-${f}`, requestId: `req-${f}-${e}`,
        message: `request failed: Error: upstream ${f} refused the call`,
        stack: `Error: upstream ${f} refused the call\n    at callUpstream (/srv/svc/src/upstream-${f}.ts:10:5)`,
      }));
    }
  }
  return lines.join('\n') + '\n';
}

async function finished(w: World, medic: Medic, n: number) {
  return w.waitFor(async () => {
    const done = await medic.store.list({ states: ['reported'] });
    return done.length >= n ? done : undefined;
  }, `${n} incidents analysed and reported`, 90_000);
}

describe('Medic behind Sentinel: one master, one replica, three sentinels', () => {
  it('keeps polling, analysing and posting through a master killed mid-run, and loses nothing', async () => {
    world = await createWorld({ llm: 'offline', redis: { env: sentinel.env, target: { kind: 'sentinel', sentinels: sentinel.sentinels, name: sentinel.name } } });
    const w = world;
    const medic = await w.startMedic({ MEDIC_REVERT_PROPOSALS: 'false', MEDIC_POLL_INTERVAL_MS: '300' });
    await medic.startWorkers();
    // A second worker as its own process (src/main.ts), finding the master through the sentinels too.
    const other = w.spawnWorker({ MEDIC_REVERT_PROPOSALS: 'false', MEDIC_POLL_INTERVAL_MS: '300', MEDIC_LLM: 'offline' });
    let otherOut = '';
    other.stdout?.on('data', (chunk: Buffer) => (otherOut += chunk.toString()));
    // Cards as printed by either worker: the consoles are outside Redis, so a repeat would show.
    const cardsPrinted = () => (w.chatText().match(/· new card/g) ?? []).length + (otherOut.match(/· new card/g) ?? []).length;

    await w.writeLogs('services.jsonl', familyLines(0, 4));
    await finished(w, medic, 4);

    // Events arrive, and the master dies while they are being polled and analysed.
    await w.writeLogs('services.jsonl', familyLines(4, 4));
    await w.waitFor(async () => (await medic.store.list()).length > 4, 'the second batch to start', 20_000);
    const reportedAtKill = (await medic.store.list({ states: ['reported'] })).length;
    const failover = await sentinel.killMaster();
    // The kill came while the second batch was still in the pipeline.
    expect(reportedAtKill).toBeLessThan(8);
    expect(failover.to).not.toBe(failover.from);
    await w.writeLogs('services.jsonl', familyLines(8, 4));

    const incidents = await finished(w, medic, 12);
    expect(incidents).toHaveLength(12);
    expect(new Set(incidents.map((i) => i.fingerprint)).size).toBe(12);
    for (const incident of incidents) expect([incident.fingerprint, (await medic.store.stats(incident.id))?.count]).toEqual([incident.fingerprint, EVENTS_PER_FAMILY]);
    await w.waitFor(async () => cardsPrinted() >= 12 || undefined, 'twelve cards');
    // Both processes share the delivery queue: once it is drained, no late repeat can still come.
    await w.waitFor(() => cardsDelivered(medic), 'the card deliveries to drain');
    expect(cardsPrinted()).toBe(12);
    expect(await sentinel.masterPort()).toBe(failover.to);
    expect([other.exitCode, other.signalCode]).toEqual([null, null]);
  }, 180_000);
});
