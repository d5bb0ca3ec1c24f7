import { describe, expect, it } from 'vitest';
import { parseGroupingCommand } from '../../src/adapters/slack/parse-grouping-command.js';
import { mergeIncidents, splitFamily } from '../../src/use-cases/open-incident.js';
import { useGroupingWorld } from '../support/incident-store-world.js';
import { APPROVER, STRANGER } from '../gateway/support.js';

const world = useGroupingWorld();
const { ingest, deps } = world;
const event = (message: string, fields: Record<string, string> = {}) => world.event('checkout', message, fields);
const byTitle = async (title: string) => (await world.store().list()).find((i) => i.title === title)!;
const toolCalls = async (tool: string) => (await world.harness().audit.list({ count: 1000 })).filter((a) => a.action === 'gateway.tool-call' && a.details?.tool === tool);

describe('Merge and Split, for approvers only', () => {
  it('merges one open card into another: events and count move, the decision holds for future events', async () => {
    await ingest([event('cart total mismatch'), event('cart total mismatch'), event('cart total mismatch'), event('basket sum differs'), event('basket sum differs')]);
    const a = await byTitle('basket sum differs');
    const b = await byTitle('cart total mismatch');

    const refused = await mergeIncidents(deps(), { incidentId: a.id, intoIncidentId: b.id, userId: STRANGER });
    expect(refused.ok).toBe(false);
    expect((await world.store().stats(b.id))?.count).toBe(3);
    expect((await toolCalls('incident.merge')).map((c) => [c.outcome, c.actor.id])).toEqual([['denied', STRANGER]]);

    expect(await mergeIncidents(deps(), { incidentId: a.id, intoIncidentId: b.id, userId: APPROVER })).toMatchObject({ ok: true });
    expect((await world.store().stats(b.id))?.count).toBe(5);
    expect(await world.store().require(a.id)).toMatchObject({ state: 'closed', mergedInto: b.id });
    expect((await world.store().require(b.id)).mergedFrom).toEqual([a.id]);
    // The next "basket" events join the survivor, in this poll and after.
    expect(await ingest([event('basket sum differs')])).toMatchObject({ absorbed: 1 });
    expect((await world.store().stats(b.id))?.count).toBe(6);
    expect((await world.store().list()).filter((i) => i.state !== 'closed')).toHaveLength(1);
    // A merged card cannot be merged again.
    expect(await mergeIncidents(deps(), { incidentId: a.id, intoIncidentId: b.id, userId: APPROVER })).toMatchObject({ ok: false });
  });

  it('splits a family by a field from the next event on, refused for a non-approver', async () => {
    await ingest([event('quota exceeded', { tenant: 'acme' }), event('quota exceeded', { tenant: 'globex' })]);
    const quota = await byTitle('quota exceeded');
    expect(await splitFamily(deps(), { incidentId: quota.id, field: 'tenant', userId: STRANGER })).toMatchObject({ ok: false });
    await ingest([event('quota exceeded', { tenant: 'acme' })]);
    expect((await world.store().list())).toHaveLength(1);

    expect(await splitFamily(deps(), { incidentId: quota.id, field: 'tenant', userId: APPROVER })).toMatchObject({ ok: true });
    await ingest([event('quota exceeded', { tenant: 'acme' }), event('quota exceeded', { tenant: 'globex' }), event('quota exceeded', { tenant: 'acme' })]);
    const titles = (await world.store().list()).map((i) => i.title).sort();
    expect(titles).toEqual(['quota exceeded', 'quota exceeded [tenant=acme]', 'quota exceeded [tenant=globex]']);
    expect((await toolCalls('incident.split')).map((c) => c.outcome).sort()).toEqual(['allowed', 'denied'].sort());
  });

  it('reads /medic merge A into B and /medic split A by FIELD, and nothing else', () => {
    expect(parseGroupingCommand('merge inc-a into inc-b')).toEqual({ kind: 'merge', incidentId: 'inc-a', intoIncidentId: 'inc-b' });
    expect(parseGroupingCommand('split inc-a by tenant')).toEqual({ kind: 'split', incidentId: 'inc-a', field: 'tenant' });
    for (const text of ['merge inc-a inc-b', 'merge * into inc-b', 'split inc-a by a b', 'status inc-a', 'split inc-a by $x']) expect(parseGroupingCommand(text)).toBeUndefined();
  });
});
