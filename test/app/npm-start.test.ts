import { execFileSync, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, createWorld, type World } from '../support/medic-world.js';
import { exited } from '../support/crash-drill.js';

let world: World | undefined;

function childPids(pid: number): number[] {
  const out = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  return out.split('\n').map((l) => Number(l.trim())).filter((n) => n > 0);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('npm start', () => {
  it('runs on the embedded defaults: detects the sample errors, prints their cards, serves the ops endpoints, and stops cleanly', async () => {
    world = await createWorld({ llm: 'offline' });
    const env = { ...process.env, ...world.env, MEDIC_LOG_DIR: join(ROOT, 'data/logs'), MEDIC_CHAT: 'auto', MEDIC_SANDBOX_PORT: '0', PORT: '0', LOG_LEVEL: 'info' };
    // `npm start` itself, so the test covers what an operator runs: npm, then the compiled entry point.
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe('exec node dist/main.js');
    const child = spawn('npm', ['start', '--silent'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const base = await world.waitFor(async () => /web role on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1], 'the web role', 60_000);
    expect(out).toMatch(/Slack sandbox +http:\/\/127\.0\.0\.1:\d+\//);
    expect(out).toContain("Set OPENAI_API_KEY");
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const count = (text: string, state: string) => Number(new RegExp(`medic_incidents\\{state="${state}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
    const metrics = await world.waitFor(async () => {
      const text = await (await fetch(`${base}/metrics`)).text();
      return count(text, 'reported') + count(text, 'awaiting_approval') === 6 ? text : undefined;
    }, 'six sample incidents to be analysed', 90_000);
    expect(metrics).toContain('medic_step_duration_seconds');
    expect(metrics).toContain('medic_llm_calls_total{step="rca",outcome="offline"} 6');
    // Cards are their own job: each follows its analysis by a moment.
    await world.waitFor(async () => out.split('medic · card posted').length - 1 >= 6, 'six cards', 30_000);
    expect(out.split('medic · card posted').length - 1).toBe(6);
    // Every sample bug was introduced by a dated commit of the sample history: each gets the revert of
    // its hunks at the failing lines, but the payments one, whose hunk reads a response shape the
    // same commit's other hunk removed (its card shows the documented fix instead).
    // The shop's JSON log and its payments path's plain log report one failure (same exception, same
    // frames, `payments` a declared alias of shop): one incident, one card.
    expect([count(metrics, 'awaiting_approval'), count(metrics, 'reported')]).toEqual([3, 3]);
    // The sample catalog's two services land in two channels of the sandbox: shop in #incidents, loyalty in #loyalty-oncall.
    const sandboxUrl = /Slack sandbox +(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)![1]!;
    const page = (await (await fetch(`${sandboxUrl}sandbox/state?user=U_ALICE`)).json()) as { channels: { id: string; name: string }[]; messages: { channel: string; threadTs: string | null; text: string }[] };
    expect(page.channels.map((c) => c.name)).toEqual(['incidents', 'loyalty-oncall']);
    const cardsIn = (name: string) => page.messages.filter((m) => !m.threadTs && m.channel === page.channels.find((c) => c.name === name)?.id);
    expect(cardsIn('incidents')).toHaveLength(5);
    // Named by the catalog's service (the sample logs call it loyalty-points).
    expect(cardsIn('loyalty-oncall').map((m) => m.text)).toEqual([expect.stringMatching(/ incident in loyalty: award failed/)]);
    // The final renders are the delivery job's, which may retry one a moment later; a quick
    // analysis has its card posted in its final state at once.
    await world.waitFor(async () => /card (?:posted|updated): Analysed — no fix proposed/.test(out), 'a final card without a fix', 30_000);
    // Secrets planted in the sample logs never reach the output.
    expect(out).not.toMatch(/AKIA[0-9A-Z]{16}|xoxb-\d|ghp_[A-Za-z0-9]{20}/);
    // SIGTERM to npm reaches Medic (the script execs node, no shell left between them) and the whole tree exits.
    const medicPid = childPids(child.pid!);
    expect(medicPid).toHaveLength(1);
    child.kill('SIGTERM');
    expect(await exited(child)).toBe('0');
    expect(out).toContain('"msg":"shutting down"');
    expect(isAlive(medicPid[0]!)).toBe(false);
  }, 120_000);
});
