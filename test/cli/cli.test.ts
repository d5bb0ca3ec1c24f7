import { afterEach, describe, expect, it } from 'vitest';
import { runCliWith as cli } from '../support/cli-io.js';
import { checkoutErrorLines, createWorld, type World, awaitIncident } from '../support/medic-world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('the command line', () => {
  it('doctor reports the embedded defaults as working', async () => {
    world = await createWorld({ llm: 'offline' });
    const { code, out } = await cli({ ...world.env, MEDIC_CHAT: 'auto', MEDIC_SANDBOX_PORT: '9' }, 'doctor');
    expect(out).toContain('All services work.');
    expect(out).toMatch(/verification\s+none awaiting/);
    expect(code).toBe(0);
    for (const name of ['redis', 'log source', 'chat', 'llm', 'embedder', 'vector store']) expect(out).toMatch(new RegExp(`ok\\s+${name}`));
  }, 60_000);

  it('replays events, lists incidents, shows one with its trail, and approves as the operator', async () => {
    world = await createWorld({ llm: 'scripted' });
    const w = world;
    const env = { ...w.env, MEDIC_OPERATOR_ID: 'U_APPROVER' };
    const events = checkoutErrorLines(2).split('\n').filter((l) => l.includes('"ERROR"')).map((line, i) => {
      const r = JSON.parse(line) as Record<string, string>;
      return { id: `replay-${i}`, source: 'replay', time: r.time, service: r.service, severity: 'error', message: r.message, raw: `${r.message}\n${r.stack}`, correlationIds: { requestId: r.requestId } };
    });
    const file = `${w.dir}/events.json`;
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, JSON.stringify([...events, { id: 'broken' }]));
    const replay = await cli(env, 'replay', file);
    expect(replay.err).toContain('replayed 2 record(s): 1 new incident(s), 1 absorbed');
    expect(replay.err).toContain('skipped record 3');
    // A skipped record is a failed replay for scripts, even though the rest was ingested.
    expect(replay.code).toBe(1);

    const medic = await w.startMedic();
    await medic.startWorkers({ poll: false });
    const incident = await awaitIncident(w, medic, ['awaiting_approval']);
    const list = await cli(env, 'incidents');
    expect(list.out).toContain(`${incident.id}  Awaiting approval`);
    const show = await cli(env, 'show', incident.id);
    expect(show.out).toContain('proposal');
    expect(show.out).toContain('+  if (itemCount === 0)');
    expect(show.out).toContain('step.rca done');
    const approve = await cli(env, 'approve', incident.id, incident.proposal!.contentHash);
    expect(approve.code).toBe(0);
    expect(approve.out).toContain('Approved — pushing the fix.');
    const missing = await cli(env, 'show', 'inc-nope');
    expect([missing.code, missing.err]).toEqual([1, expect.stringContaining('No incident inc-nope')]);
  }, 90_000);

  it('explains usage and unknown commands', async () => {
    const help = await cli({}, 'help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('templates FILE');
    expect((await cli({}, 'frobnicate')).code).toBe(2);
    expect((await cli({}, 'show')).code).toBe(2);
  });
});
