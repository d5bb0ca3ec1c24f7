import { describe, expect, it } from 'vitest';
import { ingestEvents } from '../../src/use-cases/ingest-events.js';
import { buildEvent } from '../support/builders.js';
import { useIncidentStore } from '../support/incident-store-world.js';

describe('the per-minute event rate the ingest keeps', () => {
  const base = useIncidentStore();
  const at = (iso: string, id: string) => buildEvent({ id, time: iso, message: 'Payment declined for order 1', raw: 'x' });

  it('counts each event once, in the minute of its log time, across batches and duplicates', async () => {
    const deps = { store: base.store(), clock: () => new Date('2026-12-02T15:00:00.000Z'), enqueueAnalysis: async () => undefined };
    await ingestEvents([at('2026-12-02T14:10:01.000Z', 'a'), at('2026-12-02T14:10:59.999Z', 'b'), at('2026-12-02T14:12:00.000Z', 'c')], deps);
    await ingestEvents([at('2026-12-02T14:12:30.000Z', 'd'), at('2026-12-02T14:10:01.000Z', 'a'), at('2026-12-02T13:59:00.000Z', 'e')], deps);
    const [incident] = await base.store().list();
    expect(await base.store().eventRate(incident!.id)).toEqual({ '2026-12-02T13:59': 1, '2026-12-02T14:10': 2, '2026-12-02T14:12': 2 });
    expect((await base.store().stats(incident!.id))?.count).toBe(5);
  });
});
