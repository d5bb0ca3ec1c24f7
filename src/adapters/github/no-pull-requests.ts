/**
 * The embedded default: branches go to a local bare remote and no code host opens a PR. Whether a
 * fix merged is still known from git itself (the branch reached the default branch) when given.
 */
import type { MergeState, PullRequests, FixRef } from '../../ports/code.js';

export function createNoPullRequests(options: { remote: string; mergeState?: (fix: FixRef) => Promise<MergeState> }): PullRequests {
  const { mergeState } = options;
  return {
    async open() {
      return undefined;
    },
    ...(mergeState ? { mergeState: (fix: FixRef) => mergeState(fix) } : {}),
    async check() {
      return { name: 'pull requests', adapter: 'none (embedded)', ok: true, detail: `no code host configured: branches are pushed to ${options.remote}, no PR` };
    },
  };
}
