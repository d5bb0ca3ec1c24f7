/**
 * `kill <pid>` of what `npm start` started stops every process under it: npm does not pass
 * SIGTERM on, so Medic notices it was orphaned and shuts down like on the signal itself.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, createWorld, type World } from '../support/medic-world.js';

let world: World | undefined;
const started: number[] = [];
afterEach(async () => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone, as it should be
    }
  }
  await world?.close();
  world = undefined;
});

/** Every live process whose parent chain reaches `root` (Linux /proc). */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // exited while we looked
    }
  }
  const out: number[] = [];
  for (const pid of parent.keys()) {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === root) {
        out.push(pid);
        break;
      }
    }
  }
  return out;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('stopping npm start', () => {
  it('SIGTERM to the started PID stops every child within a few seconds', async () => {
    world = await createWorld({ llm: 'offline' });
    const env = { ...process.env, ...world.env, MEDIC_LOG_DIR: join(ROOT, 'data/logs'), MEDIC_CHAT: 'auto', MEDIC_SANDBOX_PORT: '0', PORT: '0', LOG_LEVEL: 'info' };
    const child = spawn('npm', ['start', '--silent', '--', '--exit-with-parent'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    started.push(child.pid!);
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const base = await world.waitFor(async () => /web role on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1], 'the web role', 60_000);
    // Signal handlers are installed once Medic has started; a SIGTERM before that ends it by default.
    await world.waitFor(async () => out.includes('medic is running') || undefined, 'medic to be running', 60_000);
    const tree = descendants(child.pid!);
    started.push(...tree);
    expect(tree.length).toBeGreaterThan(0);
    child.kill('SIGTERM');
    const gone = await world.waitFor(async () => tree.every((pid) => !alive(pid)), 'every child to exit', 20_000).catch(() => false);
    const cmd = (pid: number) => { try { return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '); } catch { return '?'; } };
    expect(gone, `still running: ${tree.filter(alive).map((p) => `${p} ${cmd(p)}`).join(', ')}; npm alive: ${alive(child.pid!)}\n${out.split("\n").filter((l) => l.includes("shutting") || l.includes("\"level\":\"warn") || l.includes("error")).join("\n").slice(-1_500)}`).toBe(true);
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    // npm passes SIGTERM to the node it exec'd; were it lost, Medic would still stop when its parent exits.
    // Its last lines reach this process once the pipes close.
    if (child.stdout.readable) await new Promise((resolve) => child.once('close', resolve));
    expect(out).toMatch(/"signal":"(SIGTERM|parent exited)"/);
  }, 120_000);
});

describe('watchParent', () => {
  const tick = () => new Promise((r) => setTimeout(r, 30));

  it('fires once a starter is gone or the process was reparented, and not before', async () => {
    const { startersOf, watchParent } = await import('../../src/app/watch-parent.js');
    const parents = new Map([[40, 30], [30, 20], [20, 1]]);
    expect(startersOf(40, (pid) => parents.get(pid))).toEqual([40, 30, 20]);
    let dead = new Set<number>();
    let fired = 0;
    const stop = watchParent(() => fired++, { intervalMs: 5, ppid: () => 40, starters: { ppid: 40, chain: [40, 30] }, alive: (pid) => !dead.has(pid) });
    await tick();
    expect(fired).toBe(0);
    dead = new Set([30]);
    await tick();
    expect(fired).toBe(1);
    stop();
    let ppid = 40;
    watchParent(() => fired++, { intervalMs: 5, ppid: () => ppid, starters: { ppid: 40, chain: [40] }, alive: () => true });
    ppid = 1;
    await tick();
    expect(fired).toBe(2);
  });

  it('does nothing under PID 1 (Docker init, a supervisor)', async () => {
    const { watchParent } = await import('../../src/app/watch-parent.js');
    let fired = 0;
    watchParent(() => fired++, { intervalMs: 5, ppid: () => 1, starters: { ppid: 1, chain: [] }, alive: () => false });
    await tick();
    expect(fired).toBe(0);
  });
});
