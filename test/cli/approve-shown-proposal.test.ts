/** `approve <id> <hash>` approves the proposal `show` displayed, never one that replaced it since. */
import { afterEach, describe, expect, it } from 'vitest';
import { createFixProposal } from '../../src/domain/fix.js';
import { runCliWith as cli } from '../support/cli-io.js';
import { awaitIncident, createWorld, checkoutErrorLines, type World } from '../support/medic-world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('approve from the command line', () => {
  it('refuses a missing or short hash, refuses the hash of a replaced proposal, and approves the shown one', async () => {
    world = await createWorld({ llm: 'scripted' });
    const w = world;
    const env = { ...w.env, MEDIC_OPERATOR_ID: 'U_APPROVER' };
    await w.writeLogs('shop.jsonl', checkoutErrorLines(1));
    const medic = await w.startMedic();
    await medic.startWorkers();
    const incident = await awaitIncident(w, medic, ['awaiting_approval']);

    expect((await cli(env, 'approve', incident.id)).code).toBe(2);
    expect((await cli(env, 'approve', incident.id, 'abc')).code).toBe(2);

    const shown = await cli(env, 'show', incident.id);
    const hash = /^proposal ([0-9a-f]{64}) for /m.exec(shown.out)?.[1];
    expect(hash).toBe(incident.proposal!.contentHash);
    expect(shown.out).toContain(`approve ${incident.id} ${hash}`);

    // Between `show` and `approve`, the proposal changes (a re-run, a newer analysis).
    const old = incident.proposal!;
    const replaced = createFixProposal({ file: old.file, before: old.before, after: `${old.after}// a different change\nconst pwd=eval(input);\n`, explanation: 'another' });
    await medic.store.update(incident.id, (current) => ({
      incident: { ...current, proposal: replaced, title: `${current.title} password=hunter2x`, logs: current.logs && { ...current.logs, entries: [...current.logs.entries, { ...current.logs.entries[0]!, id: 'log-secret', message: 'login password=hunter2x' }] } },
      audit: [],
    }));

    // The view `approve` binds to shows the code whole and flags what looks like a secret; log text stays redacted.
    const reshown = await cli(env, 'show', incident.id);
    expect(reshown.out).toContain('+const pwd=eval(input);');
    expect(reshown.out).toContain('warning: 1 changed line look like a secret');
    expect(reshown.out).not.toContain('hunter2x');
    const json = JSON.parse((await cli(env, 'show', incident.id, '--json')).out) as { incident: { title: string; proposal: { diff: string; after: string } } };
    expect(json.incident.proposal.diff).toBe(replaced.diff);
    expect(json.incident.proposal.after).toBe(replaced.after);
    expect(json.incident.title).not.toContain('hunter2x');

    const stale = await cli(env, 'approve', incident.id, hash!.slice(0, 16));
    expect(stale.code).toBe(1);
    expect(stale.err).toContain(replaced.contentHash);
    expect((await medic.store.get(incident.id))?.state).toBe('awaiting_approval');
    const trail = await medic.audit.list({ incidentId: incident.id });
    expect(trail.filter((a) => a.action === 'incident.approve').map((a) => [a.outcome, a.actor.id])).toEqual([['denied', 'U_APPROVER']]);

    const approved = await cli(env, 'approve', incident.id, replaced.contentHash.slice(0, 12).toUpperCase());
    expect([approved.code, approved.out]).toEqual([0, expect.stringContaining('Approved')]);
    expect((await medic.store.get(incident.id))?.decision?.proposalHash).toBe(replaced.contentHash);
  }, 90_000);
});
