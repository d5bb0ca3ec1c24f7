import type { Incident, StepName } from '../domain/incident.js';
import type { PipelineDeps } from './pipeline-deps.js';

/** What a step adds to the incident, plus the details its audit record carries. */
export interface StepOutput {
  patch: Partial<Incident>;
  details?: Record<string, unknown>;
}

/**
 * A step is `(state, deps) → partial state + audit`: it reads the incident, reaches services only
 * through `deps`, and returns what it adds. The runner persists it before the next step starts.
 */
export interface Step {
  name: StepName;
  run(incident: Incident, deps: PipelineDeps): Promise<StepOutput>;
}
