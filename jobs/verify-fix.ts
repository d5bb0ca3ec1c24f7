import { z } from 'zod';
import { inInvocationScope } from '../src/gateway/invocation-scope.js';
import type { JobDefinition } from '../src/queue/job-definition.js';
import { lookAtFix, type VerifyDeps } from '../src/use-cases/verify-fix.js';

const VerifyPayload = z.object({ incidentId: z.string().min(1), round: z.number().int().nonnegative(), attempt: z.number().int().nonnegative() });
type VerifyPayload = z.infer<typeof VerifyPayload>;

/**
 * Follows a pushed fix to its verdict: one job per incident and round, which looks for the merge,
 * then the deploy, then waits out the quiet window, delaying itself between looks (so nothing
 * holds a worker, and a worker that dies mid-look hands the job on). See use-cases/verify-fix.ts.
 */
export function createVerifyFixJob(deps: VerifyDeps): JobDefinition<VerifyPayload> {
  return {
    queue: 'verify-fix',
    schema: VerifyPayload,
    attempts: 5,
    backoffMs: 5_000,
    concurrency: 8,
    async perform(data) {
      const result = await inInvocationScope(data.incidentId, () => lookAtFix(data.incidentId, data.attempt, deps));
      return result.next === 'again' ? { lookAgainInMs: result.inMs, data: { ...data, attempt: data.attempt + 1 } } : undefined;
    },
  };
}
