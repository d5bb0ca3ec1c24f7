/** Runs the reference Drain (bench/reference/drain.py) over lists of messages and returns each message's group. */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './cli-process.js';

const run = promisify(execFile);
export const REFERENCE_DRAIN = join(ROOT, 'bench/reference/drain.py');

/** One group label per message, per list; each list is mined by a fresh Drain process, as one system. */
export async function runReferenceDrain(lists: string[][]): Promise<string[][]> {
  const dir = await mkdtemp(join(tmpdir(), 'medic-bench-drain-'));
  try {
    const out: string[][] = [];
    for (const [k, messages] of lists.entries()) {
      const file = join(dir, `${k}.txt`);
      // One message per line, as Drain reads them.
      await writeFile(file, `${messages.map((m) => m.replace(/[\r\n]+/g, ' ')).join('\n')}\n`);
      const { stdout } = await run('python3', [REFERENCE_DRAIN, file], { maxBuffer: 1 << 28 });
      const groups = stdout.split('\n').filter((l) => l !== '').map((l) => (JSON.parse(l) as { group: string }).group);
      if (groups.length !== messages.length) throw new Error(`reference Drain printed ${groups.length} lines for ${messages.length} messages`);
      out.push(groups);
    }
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
