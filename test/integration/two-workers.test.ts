import { afterEach, describe, expect, it } from 'vitest';
import { createWorld, type World } from '../support/medic-world.js';

const SERVICES = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliett', 'kilo', 'lima', 'mike', 'november', 'oscar', 'papa', 'quebec', 'romeo', 'sierra', 'tango'];

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('two worker processes on the same queues', () => {
  it('process 20 incidents exactly once each, and link the one failure they share to one fix proposal', async () => {
    world = await createWorld({ llm: 'scripted' });
    const w = world;
    const lines = SERVICES.flatMap((service, i) => [0, 1, 2].map((k) => JSON.stringify({
      time: new Date(Date.parse('2026-11-30T09:00:00Z') + i * 1000 + k * 100).toISOString(), level: 'ERROR', service,
      message: `request failed: upstream ${service} refused order ${1000 + k}`, requestId: `req-${service}-${k}`,
    })));
    await w.writeLogs('storm.jsonl', lines.join('\n') + '\n');
    const observer = await w.startMedic();
    const workers = [w.spawnWorker(), w.spawnWorker()];
    const done = await w.waitFor(async () => {
      const all = await observer.store.list();
      return all.length === 20 && all.every((i) => i.state === 'awaiting_approval' || i.state === 'reported') ? all : undefined;
    }, '20 analysed incidents', 90_000);
    // One family in twenty services of one repository: whichever worker claimed it first holds the one proposal.
    const [holder, ...more] = done.filter((i) => i.proposal);
    expect([holder?.state, more.length]).toEqual(['awaiting_approval', 0]);
    const linked = done.filter((i) => i !== holder);
    expect(linked.map((i) => [i.state, i.sameFailureAs?.incidentId])).toEqual(linked.map(() => ['reported', holder!.id]));
    expect((await observer.store.require(holder!.id)).sameFailures.map((s) => s.incidentId).sort()).toEqual(linked.map((i) => i.id).sort());
    expect(new Set(done.map((i) => i.service))).toEqual(new Set(SERVICES));
    for (const incident of done) {
      expect((await observer.store.stats(incident.id))?.count).toBe(3);
      const trail = await observer.audit.list({ incidentId: incident.id });
      for (const step of ['step.intake', 'step.rca', 'step.fix-proposal', 'step.card']) expect([incident.service, step, trail.filter((a) => a.action === step).length]).toEqual([incident.service, step, 1]);
    }
    // Cards are the delivery job's: each follows its analysis by a moment.
    const postsOf = async () => (await w.redis.lrange(`${w.prefix}console:transcript`, 0, -1)).filter((row) => (JSON.parse(row) as { kind: string }).kind === 'post');
    await w.waitFor(async () => (await postsOf()).length >= 20, 'twenty cards');
    const posts = await postsOf();
    expect(posts).toHaveLength(20);
    expect(workers.map((child) => [child.exitCode, (child as unknown as { stderrText: string }).stderrText])).toEqual([[null, ''], [null, '']]);
  }, 120_000);
});
