/**
 * Whether an existing fix branch is exactly the approved change. A branch under the predictable
 * name can be pushed by anyone with write access before Medic gets there, and a commit trailer is
 * just text anyone can type, so recovery never trusts a message: it compares trees.
 */
import { sha256 } from '../../domain/hash.js';
import type { FixProposal } from '../../domain/fix.js';
import type { GitRunner } from './git-runner.js';

async function succeeds(run: () => Promise<unknown>): Promise<boolean> {
  try {
    await run();
    return true;
  } catch {
    return false;
  }
}

async function entry(git: GitRunner, commit: string, file: string): Promise<{ mode: string; blob: string } | undefined> {
  const line = (await git.run(['ls-tree', '-z', commit, '--', `:(literal)${file}`])).split('\0')[0] ?? '';
  const m = /^(\d+) blob ([0-9a-f]+)\t(.*)$/s.exec(line);
  return m && m[3] === file ? { mode: m[1]!, blob: m[2]! } : undefined;
}

/** Which parent a reused fix commit may have. */
export type ApprovedParent =
  /** Exactly these commits: the base Medic prepares the fix on (and, for its own earlier commit, that commit's parent). */
  | { oneOf: readonly string[] }
  /** Any commit of this ref's history: only for a branch of Medic's private clone, which nobody else writes. */
  | { ancestorOf: string };

/**
 * The tip of `ref` when it is one commit, on the parent `allowed` names, that changes only the
 * approved file, from the approved base to the approved bytes, without a mode change. Anything
 * else — another parent (an old base kept for its old code), other files, extra commits, a merge,
 * other content — is undefined.
 */
export async function findApprovedTip(git: GitRunner, ref: string, allowed: ApprovedParent, proposal: FixProposal): Promise<string | undefined> {
  const line = (await git.run(['rev-list', '--parents', '--max-count=1', ref, '--'])).trim();
  const [tip, parent, ...more] = line.split(' ');
  if (!tip || !parent || more.length > 0) return undefined;
  if ('oneOf' in allowed ? !allowed.oneOf.includes(parent) : !(await succeeds(() => git.run(['merge-base', '--is-ancestor', parent, allowed.ancestorOf])))) return undefined;
  const changed = (await git.run(['diff-tree', '--no-commit-id', '--name-only', '-r', '-z', parent, tip])).split('\0').filter(Boolean);
  if (changed.length !== 1 || changed[0] !== proposal.file) return undefined;
  const [before, after] = await Promise.all([entry(git, parent, proposal.file), entry(git, tip, proposal.file)]);
  if (!before || !after || before.mode !== after.mode) return undefined;
  const [beforeText, afterText] = await Promise.all([git.run(['cat-file', 'blob', before.blob]), git.run(['cat-file', 'blob', after.blob])]);
  return afterText === proposal.after && sha256(beforeText) === proposal.baseHash ? tip : undefined;
}
