import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PIPELINE_ACTOR } from '../../src/domain/audit.js';
import { createIncident } from '../../src/domain/incident.js';
import { hourOf, overflowFingerprint } from '../../src/domain/storm-policy.js';
import type { IncidentStore, IngestInput } from '../../src/ports/incident-store.js';
import { overflowIncident } from '../../src/use-cases/ingest-events.js';
import { buildEvent } from '../support/builders.js';

export interface IncidentStoreFixture {
  store: IncidentStore;
  close(): Promise<void>;
}

const NOW = Date.parse('2026-11-30T09:30:00.000Z');
const at = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString();

/** One event of `scope:family` as the ingest use-case hands it to the store. */
function input(eventId: string, scope: string, family: string, time = at(0), extra: Partial<IngestInput> = {}): IngestInput {
  const fingerprint = `${scope}:${family}`;
  const event = buildEvent({ id: eventId, time, service: scope });
  return { event, fingerprint, scope, family, candidate: createIncident({ id: `inc-${scope}-${family}-${eventId}`, fingerprint, title: `${family} failed`, event, at: time }), ...extra };
}

const analysing = (audit = 'analysis.started') => (incident: Parameters<Parameters<IncidentStore['update']>[1]>[0]) => ({
  incident: { ...incident, state: 'analyzing' as const },
  audit: [{ at: at(1), action: audit, outcome: 'done' as const, actor: PIPELINE_ACTOR }],
});

/** The states that hold incidents (a store may keep a zero for a state it once had). */
const nonZero = (counts: Record<string, number | undefined>) => Object.fromEntries(Object.entries(counts).filter(([, n]) => n !== 0));

/**
 * What every IncidentStore must do, whatever holds the records: one Redis, a Redis Cluster, or a
 * future adapter. `setup` gives a fresh, empty store; `close` removes what the test wrote.
 */
export function describeIncidentStoreContract(name: string, setup: () => Promise<IncidentStoreFixture>): void {
  describe(`IncidentStore contract: ${name}`, () => {
    let fixture: IncidentStoreFixture;
    let store: IncidentStore;
    beforeEach(async () => {
      fixture = await setup();
      store = fixture.store;
    });
    afterEach(async () => fixture.close());

    it('records each event once, opens one incident per family, and counts and samples the rest', async () => {
      const results = await store.ingest([input('e1', 'shop', 'a'), input('e2', 'shop', 'a', at(5)), input('e1', 'shop', 'a'), input('e3', 'shop', 'b')], NOW);
      expect(results.map((r) => r.status)).toEqual(['created', 'absorbed', 'duplicate', 'created']);
      const [a, , , b] = results.map((r) => r.incidentId);
      expect(results[1]?.incidentId).toBe(a);
      expect(await store.stats(a!)).toEqual({ count: 2, firstSeen: at(0), lastSeen: at(5) });
      expect((await store.recentEvents(a!)).map((e) => e.id).sort()).toEqual(['e1', 'e2']);
      expect((await store.pendingAnalysis()).sort()).toEqual([a, b].sort());
      expect((await store.list()).map((i) => i.id).sort()).toEqual([a, b].sort());
      expect(nonZero(await store.countByState())).toEqual({ new: 2 });
      expect(await store.openIncidentOf('shop:a')).toBe(a);
      await store.clearPending(a!);
      expect(await store.pendingAnalysis()).toEqual([b]);
    });

    it('holds a family until its opening rule is met, then opens with every held event counted', async () => {
      const rule = { minEvents: 3, windowMs: 600_000 };
      const results = await store.ingest([1, 2, 3].map((n) => input(`h${n}`, 'shop', 'slow', at(n), { rule })), NOW);
      expect(results.map((r) => r.status)).toEqual(['held', 'held', 'created']);
      const id = results[2]!.incidentId;
      expect((await store.stats(id))?.count).toBe(3);
      expect((await store.recentEvents(id)).map((e) => e.id).sort()).toEqual(['h1', 'h2', 'h3']);
    });

    it('counts families past the hourly cap into the hour\'s overflow incident, and names them', async () => {
      const overflow = overflowIncident(new Date(NOW), buildEvent({ time: at(0) }));
      const options = { caps: { perHour: 1, perServiceHour: 0 }, overflow };
      const results = await store.ingest([input('c1', 'shop', 'first'), input('c2', 'shop', 'second'), input('c3', 'pay', 'third'), input('c4', 'shop', 'first', at(1))], NOW, options);
      expect(results.map((r) => r.status)).toEqual(['created', 'overflow', 'overflow', 'absorbed']);
      expect(results[1]?.incidentId).toBe(overflow.id);
      const fp = overflowFingerprint(hourOf(NOW));
      expect(await store.suppressedFamilies(fp)).toBe(2);
      const families = await store.overflowFamilies(fp);
      expect(families.map((f) => [f.fingerprint, f.count]).sort()).toEqual([['pay:third', 1], ['shop:second', 1]]);
      expect((await store.stats(overflow.id))?.count).toBe(2);
      expect((await store.require(overflow.id)).state).toBe('reported');
      expect(nonZero(await store.countByState())).toEqual({ new: 1, reported: 1 });
    });

    it('serialises concurrent writers: no update lost, each state change counted once', async () => {
      const incidentId = (await store.ingest([input('w1', 'shop', 'cas')], NOW))[0]!.incidentId;
      await Promise.all(Array.from({ length: 8 }, (_, i) => store.update(incidentId, (incident) => ({
        incident: { ...incident, tokens: { ...incident.tokens, [`w${i}`]: i } },
        audit: [{ at: at(1), action: `write.${i}`, outcome: 'done', actor: PIPELINE_ACTOR }],
      }))));
      const written = await store.require(incidentId);
      expect(Object.keys(written.tokens)).toHaveLength(8);
      expect(written.version).toBe(8);
      await store.update(incidentId, analysing());
      expect(nonZero(await store.countByState())).toEqual({ analyzing: 1 });
      expect((await store.list({ states: ['analyzing'] })).map((i) => i.id)).toEqual([incidentId]);
      expect(await store.list({ states: ['new'] })).toEqual([]);
      // A mutation that returns nothing writes nothing.
      expect((await store.update(incidentId, () => undefined)).version).toBe(9);
    });

    it('says clearly what is missing', async () => {
      await expect(store.require('inc-missing')).rejects.toThrow(/No incident inc-missing/);
      await expect(store.update('inc-missing', analysing())).rejects.toThrow(/No incident inc-missing/);
      expect(await store.get('inc-missing')).toBeUndefined();
      expect(await store.stats('inc-missing')).toBeUndefined();
      expect(await store.openIncidentOf('shop:none')).toBeUndefined();
      expect(await store.resolve('inc-missing')).toBe('inc-missing');
      expect(await store.groupingDecisions()).toEqual({ aliases: new Map(), splits: new Map() });
    });

    it('releases a family: the next event opens a new incident that names its predecessor', async () => {
      const first = (await store.ingest([input('r1', 'shop', 'again')], NOW))[0]!.incidentId;
      expect(await store.lastEventMs(first)).toBe(NOW);
      expect(await store.quietIncidents(NOW + 1)).toEqual([{ id: first, lastEventMs: NOW }]);
      expect(await store.quietIncidents(NOW - 1)).toEqual([]);
      await store.releaseFingerprint(await store.require(first));
      expect(await store.quietIncidents(NOW + 1)).toEqual([]);
      const [second] = await store.ingest([input('r2', 'shop', 'again', at(10))], NOW + 600_000);
      expect(second?.status).toBe('created');
      expect(second?.incidentId).not.toBe(first);
      expect((await store.require(second!.incidentId)).previousIncidentId).toBe(first);
    });

    it('folds a retired family into its survivor, writing the records once however often it is finished', async () => {
      const results = await store.ingest([input('m1', 'shop', 'old'), input('m2', 'shop', 'new'), input('m3', 'shop', 'new', at(2), { merges: [['old', 'new']] })], NOW);
      const [gone, kept] = results.map((r) => r.incidentId);
      expect(results.map((r) => r.status)).toEqual(['created', 'created', 'absorbed']);
      expect(results[2]?.incidentId).toBe(kept);
      expect((await store.finishMerges()).sort()).toEqual([gone, kept].sort());
      expect(await store.finishMerges()).toEqual([]);
      expect(await store.resolve(gone!)).toBe(kept);
      expect((await store.require(gone!)).mergedInto).toBe(kept);
      expect((await store.require(kept!)).mergedFrom).toEqual([gone]);
      expect((await store.stats(kept!))?.count).toBe(3);
      expect(await store.openIncidentOf('shop:old')).toBeUndefined();
    });

    it('forgets processed event ids past the retention, so dedupe memory stays bounded', async () => {
      await store.ingest([input('old', 'shop', 'p')], NOW - 10_000);
      await store.ingest([input('new', 'shop', 'p')], NOW);
      expect(await store.pruneProcessed(NOW - 5_000)).toBe(1);
      expect((await store.ingest([input('new', 'shop', 'p')], NOW))[0]?.status).toBe('duplicate');
    });
  });
}
