/**
 * `/sandbox/merge`: the page's "Merge fix branch" on the thread reply that announced a pushed fix
 * branch. The page names the reply, not the branch: the branch is read from what Medic posted, so
 * only a branch Medic announced can be merged. The merge is confirmed in the thread as the person
 * who clicked, as a reviewer's merge would show on a PR. GET says whether merging is possible here.
 */
import type { ServerResponse } from 'node:http';
import { asMedicError, ErrorCode } from '../domain/errors.js';
import { sendJson } from './http-io.js';
import { localRemoteProblem, mergeFixBranch, type LocalRemote, type MergeResult } from './merge-fix-branch.js';
import type { SandboxState } from './sandbox-state.js';
import type { SandboxUser } from './sandbox-users.js';

export interface MergeRouteDeps {
  state: SandboxState;
  users: readonly SandboxUser[];
  /** The catalog's local remotes, read on each click (a catalog reload may add one). */
  localRemotes?: () => readonly LocalRemote[];
  merge?: typeof mergeFixBranch;
}

/** The branch a reply announces: the first `fix/…` code span in its text. */
const ANNOUNCED = /`(fix\/[A-Za-z0-9][A-Za-z0-9._-]{0,120})`/;

export function announcedBranch(text: string): string | undefined {
  return ANNOUNCED.exec(text)?.[1];
}

/** How the thread says a branch was merged (the page reads it to show the branch merged). */
export function mergedNote(result: MergeResult, user: SandboxUser): string {
  const what = result.alreadyMerged ? 'was already merged into' : 'merged into';
  return `🔀 \`${result.branch}\` ${what} \`${result.into}\` by <@${user.id}> (commit \`${result.commit.slice(0, 12)}\`, local remote ${result.remote}).`;
}

const STATUS: Partial<Record<string, number>> = { [ErrorCode.FixRefused]: 400, [ErrorCode.NotFound]: 404, [ErrorCode.Conflict]: 409 };

export function mergeAvailable(deps: MergeRouteDeps): boolean {
  return (deps.localRemotes?.() ?? []).some((r) => localRemoteProblem(r.path) === undefined);
}

export async function handleMerge(deps: MergeRouteDeps, input: Record<string, unknown>, res: ServerResponse): Promise<void> {
  const user = deps.users.find((u) => u.id === input.userId);
  if (!user) return sendJson(res, 400, { ok: false, error: 'user_required', detail: 'choose who you are in the sandbox page first' });
  const reply = typeof input.messageTs === 'string' ? deps.state.find(input.messageTs) : undefined;
  if (!reply || reply.threadTs === undefined || reply.botId === undefined) {
    return sendJson(res, 404, { ok: false, error: 'message_not_found', detail: 'merge from the thread reply where Medic announced the pushed fix branch' });
  }
  const branch = announcedBranch(reply.text);
  if (!branch) return sendJson(res, 400, { ok: false, error: 'no_fix_branch', detail: 'that reply names no fix/ branch' });
  try {
    const result = await (deps.merge ?? mergeFixBranch)(deps.localRemotes?.() ?? [], branch);
    const text = mergedNote(result, user);
    deps.state.add({ channel: reply.channel, user: user.id, text, blocks: [], threadTs: reply.threadTs });
    return sendJson(res, 200, { ok: true, ...result, detail: text });
  } catch (error) {
    const e = asMedicError(error);
    return sendJson(res, STATUS[e.code] ?? 500, { ok: false, error: e.code, detail: e.message });
  }
}
