/**
 * A resolved sample incident end to end: the checkout error analysed, approved and pushed by the
 * real Medic on the test Redis, its merge, deploy and verdict recorded as the verify job records
 * them; then its timeline posted in the card's thread and its postmortem written by the CLI. Every
 * timeline entry must come from the audit stream the real store wrote.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PIPELINE_ACTOR } from '../../src/domain/audit.js';
import { transition, type Incident } from '../../src/domain/incident.js';
import { auditRef, buildTimeline } from '../../src/domain/timeline.js';
import { createOpsRoutes } from '../../src/http/ops-routes.js';
import { startHttpServer } from '../../src/http/start-http-server.js';
import { postTimeline } from '../../src/use-cases/post-timeline.js';
import { runCliWith as cli } from '../support/cli-io.js';
import { APPROVER, awaitFixEnd, awaitIncident, cardsDelivered, startCheckoutWorld, type World } from '../support/medic-world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

type Medic = Awaited<ReturnType<World['startMedic']>>;

/** What the verify job writes once the fix is merged, deployed and quiet (its record names, its details). */
async function verify(medic: Medic, id: string): Promise<Incident> {
  const stats = (await medic.store.stats(id))!;
  const pushedMs = Date.parse((await medic.store.require(id)).steps.publish!.at);
  const mergedAt = new Date(pushedMs + 1_000).toISOString();
  const deployedAt = new Date(pushedMs + 2_000).toISOString();
  const verdictAt = new Date(Math.max(Date.now(), pushedMs + 3_000)).toISOString();
  await medic.store.update(id, (current) => ({
    incident: { ...current, verification: { status: 'watching', since: current.steps.publish!.at, windowMinutes: 30, mergedAt, mergeCommit: 'feedc0ffee00', deployedAt, deployMarker: 'merge', looks: 2 } },
    audit: [
      { at: verdictAt, action: 'fix.merged', outcome: 'done', actor: PIPELINE_ACTOR, details: { mergedAt, commit: 'feedc0ffee00' } },
      { at: verdictAt, action: 'fix.deployed', outcome: 'done', actor: PIPELINE_ACTOR, details: { deployedAt, marker: 'merge' } },
    ],
  }));
  return medic.store.update(id, (current) => ({
    incident: { ...transition(current, 'closed', verdictAt), verification: { ...current.verification!, status: 'verified', decidedAt: verdictAt, eventsSince: 0 }, resolution: { quietMinutes: 30, kind: 'verified' } },
    audit: [{ at: verdictAt, action: 'incident.verified', outcome: 'done', actor: PIPELINE_ACTOR, details: { deployedAt, windowMinutes: 30, beforePerHour: 60, firstSeen: stats.firstSeen, lastSeen: stats.lastSeen, count: stats.count } }],
  }));
}

describe('the timeline and the postmortem of a resolved incident', () => {
  it('come from the audit stream alone, are posted once in the thread, and the CLI writes the draft', async () => {
    const started = await startCheckoutWorld('scripted');
    world = started.world;
    const { medic } = started;
    const analysed = await awaitIncident(world, medic, ['awaiting_approval']);
    const approved = await medic.commands.approve({ incidentId: analysed.id, proposalHash: analysed.proposal!.contentHash, caller: { userId: APPROVER, via: 'slack' } });
    expect(approved.ok).toBe(true);
    const fixed = await awaitFixEnd(world, medic, analysed.id);
    expect(fixed.state).toBe('fixed');
    const resolved = await verify(medic, analysed.id);
    expect(resolved.state).toBe('closed');

    // Every entry cites a record of the real stream, with that record's time and action.
    const trail = await medic.audit.list({ incidentId: analysed.id });
    const byRef = new Map(trail.map((record) => [auditRef(record), record]));
    const entries = buildTimeline(trail);
    for (const entry of entries) {
      const record = byRef.get(entry.source.ref);
      expect(record, `${entry.kind}: ${entry.text}`).toBeDefined();
      expect([record!.at, record!.action]).toEqual([entry.source.at, entry.source.action]);
    }
    const kinds = entries.map((e) => e.kind);
    // The story in its order (the sample's log lines are older than the run, so the last event comes early).
    // The first card's place is not part of the story: deliveries coalesce, so when the analysis
    // ends before the intake card is posted, the first post already shows the analysed card.
    const story = ['first-event', 'analysis', 'proposal', 'decision', 'push', 'merge', 'deploy', 'verified'] as const;
    expect(story.map((kind) => kinds.indexOf(kind))).toEqual([...story.map((kind) => kinds.indexOf(kind))].sort((a, b) => a - b));
    expect([...story, 'card' as const].every((kind) => kinds.includes(kind))).toBe(true);
    expect(entries.find((e) => e.kind === 'last-event')?.at).toBe((await medic.store.stats(analysed.id))!.lastSeen);
    expect(entries.map((e) => Date.parse(e.at))).toEqual(entries.map((e) => Date.parse(e.at)).sort((a, b) => a - b));
    expect(entries[0]).toMatchObject({ kind: 'first-event', at: resolved.firstEvent.time });
    expect(entries.find((e) => e.kind === 'decision')?.by).toBe(APPROVER);
    expect(entries.find((e) => e.kind === 'push')?.text).toContain(resolved.fix!.branch);

    // Posted in the card's thread once, however often the resolution asks.
    const deps = { store: medic.store, audit: medic.audit, deliveries: medic.fix.deliveries };
    await postTimeline(deps, analysed.id);
    await postTimeline(deps, analysed.id);
    await world.waitFor(async () => (await cardsDelivered(medic)) && world!.chatText().includes(`Timeline of \`${analysed.id}\``), 'the timeline reply');
    expect(world.chatText().split(`Timeline of \`${analysed.id}\``)).toHaveLength(2);

    // The draft: every timeline line cites a record of the stream.
    const pm = await cli(world.env, 'postmortem', analysed.id);
    expect([pm.code, pm.err]).toEqual([0, '']);
    for (const heading of ['## Impact', '## Root cause', '## The fix', '## Timeline', '## Open follow-ups']) expect(pm.out).toContain(heading);
    expect(pm.out).toContain('Resolved — verified after the fix.');
    expect(pm.out).toContain(`\`${resolved.fix!.branch}\``);
    const cited = [...pm.out.matchAll(/<sub>\[([a-z.-]+) ([0-9a-f]{16})\]<\/sub>/g)];
    expect(cited).toHaveLength(entries.length);
    for (const [, action, ref] of cited) expect(byRef.get(ref!)?.action).toBe(action);

    const file = join(world.dir, 'postmortem.md');
    const written = await cli(world.env, 'postmortem', analysed.id, '--out', file);
    expect([written.code, written.out, written.err]).toEqual([0, '', `wrote the postmortem draft of ${analysed.id} to ${file}\n`]);
    expect(await readFile(file, 'utf8')).toContain('## Timeline');

    // The time to each milestone is exposed per service on /metrics.
    const http = await startHttpServer(0, [createOpsRoutes({ registry: medic.fix.metrics.registry, ready: async () => [] })]);
    try {
      const body = await (await fetch(`http://127.0.0.1:${http.port}/metrics`)).text();
      for (const milestone of ['card', 'decision', 'push']) expect(body).toMatch(new RegExp(`medic_time_to_seconds_count\\{service="shop",milestone="${milestone}"\\} 1`));
    } finally {
      await http.close();
    }
  }, 120_000);

  it('answers usage errors and unknown incidents like the other commands', async () => {
    expect((await cli({}, 'postmortem')).code).toBe(2);
    expect((await cli({}, 'postmortem', 'a', 'b')).code).toBe(2);
    const help = await cli({}, 'postmortem', '--help');
    expect([help.code, help.out]).toEqual([0, expect.stringContaining('postmortem <incident> [--out FILE]')]);
    const started = await startCheckoutWorld('offline');
    world = started.world;
    const missing = await cli(world.env, 'postmortem', 'inc-nope');
    expect([missing.code, missing.err]).toEqual([1, expect.stringContaining('No incident inc-nope')]);
  }, 60_000);
});
