import { z } from 'zod';
import { inInvocationScope } from '../src/gateway/invocation-scope.js';
import { failAnalysis, runAnalysis } from '../src/pipeline/run-analysis.js';
import type { PipelineDeps } from '../src/pipeline/pipeline-deps.js';
import type { JobDefinition } from '../src/queue/job-definition.js';

const AnalyzePayload = z.object({ incidentId: z.string().min(1) });

/** Analyzes one incident; jobId is the incident id, so an incident is analyzed once per round. */
export function createAnalyzeJob(deps: PipelineDeps, options: { concurrency?: number } = {}): JobDefinition<z.infer<typeof AnalyzePayload>> {
  return {
    queue: 'analyze',
    schema: AnalyzePayload,
    attempts: 5,
    backoffMs: 1_000,
    concurrency: options.concurrency ?? 4,
    async perform({ incidentId }) {
      await inInvocationScope(incidentId, () => runAnalysis(incidentId, deps));
    },
    async onFailed({ incidentId }, error) {
      await failAnalysis(incidentId, `Analysis failed: ${error.message}`, deps);
    },
  };
}
