/** The embedded default: branches go to a local bare remote and no code host opens a PR. */
import type { PullRequests } from '../../ports/code.js';

export function createNoPullRequests(options: { remote: string }): PullRequests {
  return {
    async open() {
      return undefined;
    },
    async check() {
      return { name: 'pull requests', adapter: 'none (embedded)', ok: true, detail: `no code host configured: branches are pushed to ${options.remote}, no PR` };
    },
  };
}
