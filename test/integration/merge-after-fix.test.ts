/**
 * The default run past the fix: no code host, the sample's local bare remote. Once the pushed fix
 * branch is merged (the sandbox's Merge fix branch), the app's own PullRequests port — routed to
 * the incident's repository and gated like every port — says merged, with the merge commit.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAdapters } from '../../src/app/create-adapters.js';
import { loadConfig } from '../../src/config/load-config.js';
import { inInvocationScope } from '../../src/gateway/invocation-scope.js';
import { createLogger } from '../../src/observability/logger.js';
import { mergeFixBranch } from '../../src/sandbox/merge-fix-branch.js';
import { gitIn } from '../support/git-remote.js';
import { APPROVER, awaitFixEnd, awaitIncident, startCheckoutWorld, type World } from '../support/medic-world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('merge state in the default run', () => {
  it('follows the fix branch to merged on the local remote through the app\'s gated port', async () => {
    const started = await startCheckoutWorld('scripted');
    world = started.world;
    const { world: w, medic } = started;
    const waiting = await awaitIncident(w, medic, ['awaiting_approval']);
    await medic.commands.approve({ incidentId: waiting.id, proposalHash: waiting.proposal!.contentHash, caller: { userId: APPROVER, via: 'slack' } });
    const fixed = await awaitFixEnd(w, medic, waiting.id);
    expect(fixed.state).toBe('fixed');
    const branch = fixed.fix!.branch;
    const remote = join(w.env.MEDIC_DATA_DIR!, 'remotes/sample-service.git');

    // The ports as another Medic process on the same data directory builds them.
    const adapters = await createAdapters({ config: loadConfig(w.env), redis: w.redis, logger: createLogger({ level: 'silent' }), chatOut: w.chatOut });
    try {
      const mergeState = adapters.pullRequests.mergeState?.bind(adapters.pullRequests);
      expect(mergeState).toBeDefined();
      expect('deployment' in adapters.pullRequests).toBe(false);
      expect(await inInvocationScope(waiting.id, () => mergeState!({ branch }))).toEqual({ merged: false });

      const merged = await mergeFixBranch([{ path: remote, branch: 'main' }], branch);
      expect(merged).toMatchObject({ branch, into: 'main', alreadyMerged: false });
      const state = await inInvocationScope(waiting.id, () => mergeState!({ branch }));
      expect(state).toMatchObject({ merged: true, commit: gitIn(remote, ['rev-parse', 'main']) });
      expect(Number.isFinite(Date.parse(state.mergedAt ?? ''))).toBe(true);
      const trail = await medic.audit.list({ incidentId: waiting.id });
      expect(trail.filter((a) => a.details?.tool === 'github.merge-state').map((a) => a.outcome)).toEqual(['allowed', 'allowed']);
    } finally {
      await adapters.close?.();
    }
  }, 120_000);
});
