/** The check's limits: time (the whole process group killed), output (bounded, redacted), environment and network. */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectIsolation } from '../../src/adapters/git/run-check.js';
import { MAX_CHECK_OUTPUT } from '../../src/domain/proposal-check.js';
import { cardOf, createCheckWorld, type CheckWorld } from './check-world.js';

/** Alive means running: a killed child that nobody reaped yet is a zombie (`Z`), not running. */
function running(pid: number): boolean {
  if (!existsSync(`/proc/${pid}/stat`)) return false;
  const state = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').charAt(0);
  return state !== 'Z' && state !== 'X';
}

describe('the check command\'s limits', () => {
  let world: CheckWorld;
  let scratch: string;
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'medic-check-scratch-'));
    world = await createCheckWorld({ 'a.txt': 'one\n' }, { env: { ...process.env, SLACK_BOT_TOKEN: 'xoxb-111-222-medicsecretvalue', HTTPS_PROXY: 'http://proxy.example:3128' } });
  });
  afterAll(() => {
    world.cleanup();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('kills the whole process group on timeout and reports it', async () => {
    const started = Date.now();
    const { proposal, result } = await world.check('a.txt', 'two\n', { command: `sleep 60 & echo $! > ${scratch}/pid; echo started; wait`, timeoutS: 1 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result).toMatchObject({ status: 'timed-out', reason: 'killed after 1 s' });
    expect(result.output).toContain('started');
    const pid = Number(readFileSync(`${scratch}/pid`, 'utf8'));
    expect(running(pid)).toBe(false);
    const card = cardOf(proposal, result);
    expect(card.checkText).toMatch(/\*Check ✗\* `.+` timed out \(killed after 1 s\)/);
    expect(card.buttons).not.toContain('medic_approve');
  });

  it('keeps a bounded output, secrets redacted, and says how much was left out', async () => {
    const command = 'echo "error: db password=hunter2-Very-Secret-991"; echo "token ghp_abcdefghijklmnopqrstuvwxyz0123456789"; yes "line of noise" | head -c 300000; exit 3';
    const { proposal, result } = await world.check('a.txt', 'two\n', { command });
    expect(result).toMatchObject({ status: 'failed', exitCode: 3 });
    expect(result.output!.length).toBeLessThanOrEqual(MAX_CHECK_OUTPUT);
    expect(result.omittedBytes).toBeGreaterThan(250_000);
    expect(result.output).not.toContain('hunter2');
    expect(result.output).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(result.output).toContain('[REDACTED');
    const card = cardOf(proposal, result);
    expect(card.checkText).toMatch(/exit 3/);
    expect(card.checkText).not.toContain('hunter2');
    // The first error lines only: a few lines, never the whole output.
    expect(card.checkText.split('\n').length).toBeLessThanOrEqual(12);
    expect(card.checkText.length).toBeLessThan(1_500);
  });

  it('runs without Medic\'s secrets or proxy variables, with CI=true and a limited address space', async () => {
    const { result } = await world.check('a.txt', 'two\n', { command: 'env; ulimit -v', memoryMb: 1_024 });
    expect(result.status).toBe('passed');
    expect(result.output).not.toMatch(/SLACK_BOT_TOKEN|xoxb-|HTTPS_PROXY|proxy\.example/);
    expect(result.output).toMatch(/^CI=true$/m);
    expect(result.output).toMatch(/^1048576$/m);
    expect(result.output).toMatch(/^MEDIC_NODE_MODULES=/m);
  });

  it('kills a command that allocates past its memory limit', async () => {
    const { result } = await world.check('a.txt', 'two\n', { command: 'python3 -c "x = bytearray(700 * 1024 * 1024); print(len(x))"', memoryMb: 256 });
    expect(result.status).toBe('failed');
    expect(result.output).toMatch(/MemoryError/);
  });

  it('has no network where the kernel grants a namespace, and says which isolation applied', async () => {
    const isolation = detectIsolation();
    // Redis listens on 127.0.0.1:6379 for the tests: reachable from here, not from inside the check.
    const { proposal, result } = await world.check('a.txt', 'two\n', { command: 'exec 3<>/dev/tcp/127.0.0.1/6379 && echo connected' });
    expect(result.isolation).toBe(isolation.label);
    if (isolation.prefix.length > 0) {
      expect(isolation.label).toMatch(/^no network/);
      expect(result.status).toBe('failed');
      expect(result.output).not.toContain('connected');
    } else {
      expect(isolation.label).toMatch(/network not isolated/);
    }
    expect(cardOf(proposal, result).checkText).toContain(isolation.label);
  });
});
