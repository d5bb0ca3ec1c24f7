import { afterEach, describe, expect, it } from 'vitest';
import { sweepQuietIncidents } from '../../jobs/sweep.js';
import type { Medic } from '../../src/app/create-medic.js';
import { createLogger } from '../../src/observability/logger.js';
import { ingestEvents } from '../../src/use-cases/ingest-events.js';
import { buildEvent } from '../support/builders.js';
import { createWorld, type World } from '../support/medic-world.js';
import { STORM_FAMILIES, stormLines } from '../support/storm-events.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

interface TranscriptRow { kind: string; key: string; text: string; blocks: unknown[] }
async function transcript(w: World): Promise<TranscriptRow[]> {
  return (await w.redis.lrange(`${w.prefix}console:transcript`, 0, -1)).map((row) => JSON.parse(row) as TranscriptRow);
}

let seq = 0;
function eventOf(service: string, message: string, at = new Date()) {
  seq++;
  return buildEvent({ id: `test:${seq}`, service, time: at.toISOString(), message: message.replace('#', String(1000 + seq)), raw: message.replace('#', String(1000 + seq)) });
}

async function analysed(w: World, medic: Medic, n: number): Promise<Awaited<ReturnType<Medic['store']['list']>>> {
  return w.waitFor(async () => {
    const all = (await medic.store.list()).filter((i) => !i.fingerprint.startsWith('overflow:'));
    return all.length === n && all.every((i) => i.steps.card) ? all : undefined;
  }, `${n} analysed incidents`, 150_000);
}

describe('a storm of 100,000 error events in one poll', () => {
  it('opens exactly one incident, one analysis and one card per family', async () => {
    world = await createWorld({ llm: 'scripted' });
    const w = world;
    const chunks = stormLines({ total: 100_000 });
    for (const [i, chunk] of chunks.entries()) await w.writeLogs(`storm-${i}.jsonl`, chunk);
    const medic = await w.startMedic();
    await medic.startWorkers();

    const incidents = await analysed(w, medic, 20);
    const counts = await Promise.all(incidents.map(async (i) => (await medic.store.stats(i.id))?.count));
    expect(counts).toEqual(Array.from({ length: 20 }, () => 5_000));
    expect(new Set(incidents.map((i) => i.title)).size).toBe(20);
    const rca = (await medic.audit.list({ count: 100_000 })).filter((a) => a.action === 'step.rca');
    expect(rca).toHaveLength(20);
    // Cards are the delivery job's: each follows its analysis by a moment.
    const posts = async () => (await transcript(w)).filter((row) => row.kind === 'post');
    await w.waitFor(async () => (await posts()).length >= 20, 'twenty cards');
    expect(await posts()).toHaveLength(20);
  }, 240_000);
});

describe('families that share most words', () => {
  it('stay two incidents', async () => {
    world = await createWorld({ llm: 'scripted' });
    const medic = await world.startMedic();
    const events = [0, 1, 2].flatMap(() => [eventOf('checkout', 'Payment declined for order #'), eventOf('checkout', 'Payment timeout for order #')]);
    expect(await ingestEvents(events, medic.poll)).toMatchObject({ created: 2, absorbed: 4 });
    const titles = (await medic.store.list()).map((i) => i.title).sort();
    expect(titles).toEqual(['Payment declined for order <*>', 'Payment timeout for order <*>']);
  });
});

describe('the card count', () => {
  it('is refreshed at most once per period, and the last update shows the final count', async () => {
    world = await createWorld({ llm: 'scripted' });
    const w = world;
    const medic = await w.startMedic({ MEDIC_CARD_REFRESH_S: '5' });
    await medic.startWorkers({ poll: false });
    await ingestEvents([eventOf('checkout', 'Payment declined for order #')], medic.poll);
    const [incident] = await analysed(w, medic, 1);

    await ingestEvents(Array.from({ length: 5 }, () => eventOf('checkout', 'Payment declined for order #')), medic.poll);
    await ingestEvents(Array.from({ length: 5 }, () => eventOf('checkout', 'Payment declined for order #')), medic.poll);
    const jobs = await medic.queues.refreshCard.getJobs(['delayed', 'waiting', 'active', 'completed']);
    expect(jobs.map((j) => j.data)).toEqual([{ incidentId: incident!.id }]);

    await w.waitFor(async () => (await medic.queues.refreshCard.getJobCounts('completed')).completed === 1, 'the refresh');
    const count = (await medic.store.stats(incident!.id))?.count;
    expect(count).toBe(11);
    // The refresh asks the delivery job for the update: the card shows the final count once that job ran.
    const last = await w.waitFor(async () => {
      const row = (await transcript(w)).filter((r) => r.key === `card:${incident!.id}`).at(-1);
      return row && JSON.stringify(row.blocks).includes(`*Events*\\n${count} · `) ? row : undefined;
    }, 'the card update with the final count', 15_000);
    expect(last.kind).toBe('update');
  });
});

describe('a quiet family', () => {
  it('closes its finished incident as resolved, and a recurrence opens a new linked incident', async () => {
    world = await createWorld({ llm: 'offline' });
    const w = world;
    const medic = await w.startMedic();
    await medic.startWorkers({ poll: false });
    await ingestEvents([eventOf('checkout', 'Payment declined for order #')], medic.poll);
    const [first] = await analysed(w, medic, 1);
    expect(first!.state).toBe('reported');

    const sweep = { store: medic.store, deliveries: medic.fix.deliveries, logger: createLogger({ level: 'silent' }), quietPeriodS: 3600 };
    expect(await sweepQuietIncidents({ ...sweep, clock: () => new Date(Date.now() + 60_000) })).toEqual([]);
    expect(await sweepQuietIncidents({ ...sweep, clock: () => new Date(Date.now() + 3_660_000) })).toEqual([first!.id]);
    const closed = await medic.store.require(first!.id);
    expect(closed.state).toBe('closed');
    const resolve = (await medic.audit.list({ incidentId: first!.id })).filter((a) => a.action === 'incident.resolve');
    expect(resolve.map((a) => a.reason)).toEqual(['resolved after 61 quiet minutes']);
    // The resolution card is a delivery of its own.
    await w.waitFor(async () => JSON.stringify((await transcript(w)).filter((row) => row.key === `card:${first!.id}`).at(-1)?.blocks).includes('Resolved after 61 quiet minutes'), 'the resolution card');

    expect(await ingestEvents([eventOf('checkout', 'Payment declined for order #', new Date(Date.now() + 60_000))], medic.poll)).toMatchObject({ created: 1 });
    const second = (await medic.store.list()).find((i) => i.id !== first!.id);
    expect(second).toMatchObject({ fingerprint: first!.fingerprint, previousIncidentId: first!.id });
    expect((await medic.store.require(first!.id)).state).toBe('closed');
  });
});

describe('the opening rule', () => {
  it('opens nothing for N-1 events and one incident counting all N at the Nth', async () => {
    world = await createWorld({ llm: 'scripted' });
    const medic = await world.startMedic({ MEDIC_OPEN_RULES: 'checkout=4/120', MEDIC_OPEN_MIN_EVENTS: '2' });
    const declined = () => eventOf('checkout', 'Payment declined for order #');
    expect(await ingestEvents([declined(), declined(), declined()], medic.poll)).toMatchObject({ held: 3, created: 0 });
    expect(await medic.store.list()).toEqual([]);
    expect(await ingestEvents([declined()], medic.poll)).toMatchObject({ created: 1 });
    const [incident] = await medic.store.list();
    expect((await medic.store.stats(incident!.id))?.count).toBe(4);
    expect(await ingestEvents([eventOf('search', 'query # timed out')], medic.poll)).toMatchObject({ held: 1 });
    expect(await medic.queues.analyze.getJob(incident!.id)).toBeDefined();
  });
});

describe('the caps on new incidents', () => {
  it('count families past the cap into one overflow incident with one card and no analysis', async () => {
    world = await createWorld({ llm: 'scripted' });
    const w = world;
    const medic = await w.startMedic({ MEDIC_MAX_NEW_INCIDENTS_PER_HOUR: '3', MEDIC_CARD_REFRESH_S: '1' });
    await medic.startWorkers({ poll: false });
    const families = STORM_FAMILIES.slice(0, 8);
    const storm = families.flatMap((f, i) => [0, 1].map((k) => eventOf(f.service, `${f.exception} in family ${'abcdefgh'[i]} for request #-${k}`)));
    expect(await ingestEvents(storm, medic.poll)).toMatchObject({ created: 3, overflow: 10, absorbed: 3 });
    await analysed(w, medic, 3);
    const overflow = await w.waitFor(async () => (await medic.store.list()).find((i) => i.fingerprint.startsWith('overflow:') && i.card), 'the overflow card');
    expect(overflow).toMatchObject({ state: 'reported', title: expect.stringContaining('5 event families suppressed') });
    expect((await medic.store.stats(overflow.id))?.count).toBe(10);
    expect(await medic.queues.analyze.getJob(overflow.id)).toBeUndefined();
    // The three incidents' cards are the delivery job's: each follows its analysis by a moment.
    const postsNow = async () => (await transcript(w)).filter((row) => row.kind === 'post');
    await w.waitFor(async () => (await postsNow()).length >= 4, 'four cards');
    const posts = await postsNow();
    expect(posts.map((p) => p.key).filter((k) => k === `card:${overflow.id}`)).toHaveLength(1);
    expect(posts).toHaveLength(4);
  });
});
