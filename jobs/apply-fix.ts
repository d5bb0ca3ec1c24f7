import { z } from 'zod';
import { inInvocationScope } from '../src/gateway/invocation-scope.js';
import { abandonFix, runFix, type FixDeps } from '../src/pipeline/run-fix.js';
import type { JobDefinition } from '../src/queue/job-definition.js';

const ApplyFixPayload = z.object({ incidentId: z.string().min(1), proposalHash: z.string().regex(/^[0-9a-f]{64}$/) });

/** Publishes an approved fix; jobId is incident + proposal hash, so one approval is one branch. */
export function createApplyFixJob(deps: FixDeps): JobDefinition<z.infer<typeof ApplyFixPayload>> {
  return {
    queue: 'apply-fix',
    schema: ApplyFixPayload,
    attempts: 5,
    backoffMs: 2_000,
    concurrency: 1,
    async perform({ incidentId, proposalHash }) {
      await inInvocationScope(incidentId, () => runFix(incidentId, proposalHash, deps));
    },
    async onFailed({ incidentId }, error) {
      deps.logger.error({ incidentId, err: error }, 'apply-fix failed for good');
      await abandonFix(incidentId, `Fix failed: ${error.message}`, deps);
    },
  };
}
