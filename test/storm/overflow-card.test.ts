import { describe, expect, it } from 'vitest';
import { refreshCard } from '../../jobs/refresh-card.js';
import { OpenIncidentActionId, OpenIncidentValue, withOverflowFamilies } from '../../src/presenters/overflow-card.js';
import { ingestEvents } from '../../src/use-cases/ingest-events.js';
import { useOverflowStore } from '../support/overflow-store.js';

const o = useOverflowStore();
const { deps, event } = o;

describe('the overflow card', () => {
  it('names its services and lists its heaviest families with counts and an Open incident button', async () => {
    // A heavy first incident, so nothing in the overflow outgrows it.
    await ingestEvents(Array.from({ length: 50 }, () => event('checkout', 'payment gateway down')), deps());
    await ingestEvents([
      ...Array.from({ length: 3 }, () => event('search', 'index shard unavailable')),
      event('billing', 'ledger sync refused'),
    ], deps());
    const overflow = (await o.store().list()).find((i) => i.fingerprint.startsWith('overflow:'))!;
    const families = await o.store().overflowFamilies(overflow.fingerprint);
    expect(families.map((f) => [f.service, f.title, f.count])).toEqual([['search', 'index shard unavailable', 3], ['billing', 'ledger sync refused', 1]]);

    const chat = o.chat();
    await refreshCard(overflow.id, o.refreshDeps(chat));
    const [posted] = await o.transcript();
    const text = JSON.stringify(posted!.blocks);
    expect(text).toContain('Services: `billing`, `search`');
    expect(text).toContain('index shard unavailable* — 3 events');
    const buttons = posted!.blocks.flatMap((b) => (b.accessory ? [b.accessory as { action_id: string; value: string }] : []));
    expect(buttons.map((b) => b.action_id)).toEqual([OpenIncidentActionId, OpenIncidentActionId]);
    expect(OpenIncidentValue.parse(JSON.parse(buttons[0]!.value))).toEqual({ incidentId: overflow.id, fingerprint: families[0]!.fingerprint });
  });

  it('stays within Block Kit limits however many families it holds', () => {
    const families = Array.from({ length: 200 }, (_, i) => ({ fingerprint: `fp${i}`, service: `svc-${i}`, title: 'x'.repeat(5000), count: i }));
    const card = withOverflowFamilies({ text: 'overflow', blocks: Array.from({ length: 40 }, () => ({ type: 'divider' })) }, 'inc-overflow', families);
    expect(card.blocks.length).toBeLessThanOrEqual(50);
    const texts = card.blocks.flatMap((b) => ((b as { text?: { text: string } }).text ? [(b as { text: { text: string } }).text.text] : []));
    for (const t of texts) expect(t.length).toBeLessThanOrEqual(3000);
  });
});
