import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCliWith as cli } from '../support/cli-io.js';
import { createWorld, type World } from '../support/medic-world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const ROOT = join(import.meta.dirname, '../..');

const lockWait = (user: string, i: number) =>
  JSON.stringify({ time: `2026-11-30T09:00:0${i}.000Z`, level: 'ERROR', service: 'orders', message: `lock wait timeout for user ${user} on table orders` });

describe('replay FILE --print-incidents', () => {
  it('prints one line per input record, in order, naming the incident after every merge, the summary on stderr', async () => {
    world = await createWorld({ llm: 'offline' });
    // Lines copied from the sample logs, as they are: a JSON line and a plain entry with its stack trace.
    const jsonLine = (await readFile(join(ROOT, 'data/logs/shop.jsonl'), 'utf8')).split('\n').find((l) => l.includes('"ERROR"'))!;
    const plain = (await readFile(join(ROOT, 'data/logs/shop-gateway.log'), 'utf8')).split('\n');
    const at = plain.findIndex((l) => l.includes(' ERROR [payments]'));
    const file = join(world.dir, 'replay.log');
    const users = ['alice', 'alice', 'bob', 'bob', 'bob', 'carol'];
    await writeFile(file, [jsonLine, ...plain.slice(at, at + 4), ...users.map(lockWait), 'not a log line', jsonLine].join('\n') + '\n');

    const { code, out, err } = await cli(world.env, 'replay', file, '--print-incidents');
    const lines = out.trim().split('\n').map((l) => JSON.parse(l) as { incident: string; status: string });
    expect(lines).toHaveLength(10);
    // The JSON line again, further down the file, is another record of the same family.
    expect(lines[9]).toEqual({ incident: lines[0]!.incident, status: 'absorbed' });
    expect(lines[0]).toMatchObject({ status: 'created' });
    expect(lines[1]).toMatchObject({ status: 'created' });
    // bob's incident merged into alice's when carol showed the user is a variable: every line names alice's.
    const alice = lines[2]!.incident;
    expect(lines.slice(2, 8).map((l) => l.incident)).toEqual(Array(6).fill(alice));
    expect(lines.slice(2, 8).map((l) => l.status)).toEqual(['created', 'absorbed', 'created', 'absorbed', 'absorbed', 'absorbed']);
    expect(lines[8]).toEqual({ incident: '', status: 'skipped' });
    expect(err).toContain('skipped record 12: a continuation line without an entry');
    expect(err).toMatch(/replayed 9 record\(s\): 4 new incident\(s\), 5 absorbed, 0 held, 0 overflowed, 0 duplicate\(s\); 4 famil\(ies\); 1 skipped/);
    expect(code).toBe(1);
    // Replaying the same file again records nothing twice.
    const again = await cli(world.env, 'replay', file, '--print-incidents');
    expect(again.out.trim().split('\n').map((l) => (JSON.parse(l) as { status: string }).status)).toEqual([...Array(8).fill('duplicate'), 'skipped', 'duplicate']);
    // The miner's families are recorded, as a poll records them.
    expect(await world.redis.exists(`${world.prefix}templates:snapshot`)).toBe(1);
  }, 60_000);

  it('counts overflowed records and exits 0 when nothing was skipped', async () => {
    world = await createWorld({ llm: 'offline' });
    const env = { ...world.env, MEDIC_MAX_NEW_INCIDENTS_PER_SERVICE_HOUR: '1' };
    const file = join(world.dir, 'storm.jsonl');
    const line = (message: string, i: number) => JSON.stringify({ time: `2026-11-30T09:00:0${i}.000Z`, level: 'ERROR', service: 'billing', message });
    await writeFile(file, [line('invoice render failed', 0), line('invoice render failed', 1), line('ledger sync refused', 2), line('ledger sync refused', 3)].join('\n'));
    const { code, out, err } = await cli(env, 'replay', file, '--print-incidents');
    const lines = out.trim().split('\n').map((l) => JSON.parse(l) as { incident: string; status: string });
    expect(lines.map((l) => l.status)).toEqual(['created', 'absorbed', 'overflow', 'overflow']);
    expect(lines[2]!.incident).toMatch(/^inc-overflow-/);
    expect(err).toContain('2 overflowed');
    expect(code).toBe(0);
  }, 60_000);
});
