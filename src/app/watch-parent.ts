import { readFileSync } from 'node:fs';

/**
 * Stops Medic when the process that started it goes away. `npm start` does not pass SIGTERM on
 * to its child: `kill <npm pid>` ends npm and leaves Medic (and the `sh -c` between them) running,
 * reparented and still serving. So Medic remembers its starters — its parent and theirs, up to a
 * few levels, read from /proc where there is one — and once a second checks they are all still
 * there; when one is gone it shuts down as if the signal had arrived. Only with `--exit-with-parent`
 * (test harnesses ask for it): a shell that ran `nohup npm start &` or `setsid npm start &` exits on
 * purpose, and Medic must keep running.
 */
const LEVELS = 3;

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses; the fields after its last ')' do not.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

/** The parent and its ancestors (not PID 1, not the kernel's 0). */
export function startersOf(ppid: number, readParent: (pid: number) => number | undefined = parentOf): number[] {
  const chain: number[] = [];
  for (let pid: number | undefined = ppid; pid !== undefined && pid > 1 && chain.length < LEVELS; pid = readParent(pid)) chain.push(pid);
  return chain;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Who started this process, read as early as possible: a starter may be gone before Medic is up. */
export interface Starters {
  ppid: number;
  chain: number[];
}

export function readStarters(): Starters {
  return { ppid: process.ppid, chain: startersOf(process.ppid) };
}

export function watchParent(
  onOrphaned: () => void,
  options: { intervalMs?: number; ppid?: () => number; starters?: Starters; alive?: (pid: number) => boolean } = {},
): () => void {
  const ppid = options.ppid ?? (() => process.ppid);
  const alive = options.alive ?? isAlive;
  const { ppid: original, chain: starters } = options.starters ?? readStarters();
  if (starters.length === 0) return () => undefined;
  const timer = setInterval(() => {
    if (ppid() === original && starters.every(alive)) return;
    clearInterval(timer);
    onOrphaned();
  }, options.intervalMs ?? 1_000);
  timer.unref();
  return () => clearInterval(timer);
}
