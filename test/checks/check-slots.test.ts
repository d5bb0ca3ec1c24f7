/** A storm's proposal checks share the process's check slots: beyond them a check waits its turn, and one whose job gave up meanwhile never runs. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheckWorld, type CheckWorld } from './check-world.js';

/** Each check appends `start <ns>` and `end <ns>` to the log: the intervals the commands ran in. */
function intervals(log: string): { start: number; end: number }[] {
  const runs: { start: number; end: number }[] = [];
  const open = new Map<string, number>();
  for (const line of readFileSync(log, 'utf8').trim().split('\n')) {
    const [what, id, ns] = line.split(' ');
    if (what === 'start') open.set(id!, Number(ns) / 1e6);
    else runs.push({ start: open.get(id!)!, end: Number(ns) / 1e6 });
  }
  return runs.sort((a, b) => a.start - b.start);
}

const timed = (log: string, id: string) => `echo "start ${id} $(date +%s%N)" >> ${log}; sleep 0.4; echo "end ${id} $(date +%s%N)" >> ${log}`;

describe('proposal check slots', () => {
  let limited: CheckWorld;
  let open: CheckWorld;
  let scratch: string;
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'medic-check-slots-'));
    limited = await createCheckWorld({ 'a.txt': 'one\n' }, { slots: pLimit(1) });
    open = await createCheckWorld({ 'a.txt': 'one\n' });
  });
  afterAll(() => {
    limited.cleanup();
    open.cleanup();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('runs checks beyond the slots one after another, each still passing', async () => {
    const log = join(scratch, 'limited.log');
    const results = await Promise.all(['1', '2', '3'].map((id) => limited.check('a.txt', `two ${id}\n`, { command: timed(log, id) })));
    expect(results.map((r) => r.result.status)).toEqual(['passed', 'passed', 'passed']);
    const runs = intervals(log);
    expect(runs).toHaveLength(3);
    for (let i = 1; i < runs.length; i++) expect(runs[i]!.start).toBeGreaterThanOrEqual(runs[i - 1]!.end);
  });

  it('without slots the same checks run side by side (what the slots prevent)', async () => {
    const log = join(scratch, 'open.log');
    await Promise.all(['1', '2', '3'].map((id) => open.check('a.txt', `two ${id}\n`, { command: timed(log, id) })));
    const runs = intervals(log);
    expect(runs.some((run, i) => i > 0 && run.start < runs[i - 1]!.end)).toBe(true);
  });

  it('does not run a check whose job gave up while it waited for a slot', async () => {
    const log = join(scratch, 'cancelled.log');
    const controller = new AbortController();
    const first = limited.check('a.txt', 'two\n', { command: timed(log, 'first') });
    const second = limited.check('a.txt', 'three\n', { command: timed(log, 'second') }, controller.signal);
    controller.abort();
    const [ran, cancelled] = await Promise.all([first, second]);
    expect(ran.result.status).toBe('passed');
    expect(cancelled.result).toMatchObject({ status: 'not-run', reason: 'the check was cancelled before it started' });
    expect(readFileSync(log, 'utf8')).not.toContain('second');
  });
});
