import { PIPELINE_ACTOR } from '../domain/audit.js';
import { isStepDone, transition, type Incident } from '../domain/incident.js';
import type { PipelineDeps } from './pipeline-deps.js';
import { createProgressUpdates } from './progress-updates.js';
import type { Step, StepOutput } from './step.js';
import { cardStep } from './steps/card.js';
import { diagnosticsStep } from './steps/diagnostics.js';
import { fixProposalStep } from './steps/fix-proposal.js';
import { intakeStep } from './steps/intake.js';
import { proposalCheckStep } from './steps/proposal-check.js';
import { logWindowStep } from './steps/log-window.js';
import { rcaStep } from './steps/rca.js';
import { recentChangesStep } from './steps/recent-changes.js';
import { recommendStep } from './steps/recommend.js';
import { sameFailureStep } from './steps/same-failure.js';
import { similarDocsStep } from './steps/similar-docs.js';

interface Recorded {
  step: Step;
  output: StepOutput;
  at: string;
}

export const ANALYSIS_STEPS: readonly Step[] = [
  sameFailureStep, intakeStep, logWindowStep, similarDocsStep, recentChangesStep, rcaStep, recommendStep, diagnosticsStep, fixProposalStep, proposalCheckStep, cardStep,
];

/**
 * Runs the analysis from the last persisted step. Each step's output and its audit record are
 * written together, guarded by the record's version, so a worker killed anywhere resumes after
 * the last persisted step and a step is never recorded twice. A step that adds nothing (no holder
 * of the same failure elsewhere, no operational action proposed) is recorded in the next step's
 * write: a worker killed between them re-runs it, which changes nothing either.
 */
export async function runAnalysis(incidentId: string, deps: PipelineDeps): Promise<Incident> {
  const now = () => deps.clock().toISOString();
  let incident = await deps.store.update(incidentId, (current) =>
    current.state === 'new'
      ? { incident: transition(current, 'analyzing', now()), audit: [{ at: now(), action: 'incident.analyze', outcome: 'done', actor: PIPELINE_ACTOR }] }
      : undefined,
  );
  const progress = createProgressUpdates(deps);
  // Steps that changed nothing, waiting to be recorded with the next step's write.
  let unchanged: Recorded[] = [];
  try {
    for (const [i, step] of ANALYSIS_STEPS.entries()) {
      if (incident.state !== 'analyzing') break;
      if (isStepDone(incident, step.name)) continue;
      const started = performance.now();
      let output;
      try {
        output = await step.run(incident, deps);
      } catch (error) {
        deps.metrics.stepFailures.inc({ step: step.name });
        deps.metrics.stepDuration.observe({ step: step.name, outcome: 'failed' }, (performance.now() - started) / 1000);
        throw error;
      }
      const recorded: Recorded = { step, output, at: now() };
      // A step with nothing to add costs the next step nothing to re-run, so it shares its write.
      if (Object.keys(output.patch).length === 0 && i < ANALYSIS_STEPS.length - 1) {
        deps.metrics.stepDuration.observe({ step: step.name, outcome: 'done' }, (performance.now() - started) / 1000);
        unchanged.push(recorded);
        continue;
      }
      const batch = [...unchanged, recorded];
      unchanged = [];
      incident = await deps.store.update(incidentId, (current) => {
        if (current.state !== 'analyzing') return undefined;
        const fresh = batch.filter((r) => !isStepDone(current, r.step.name));
        if (fresh.length === 0) return undefined;
        const at = recorded.at;
        return {
          incident: { ...current, ...fresh.reduce<Partial<Incident>>((patch, r) => ({ ...patch, ...r.output.patch }), {}), steps: { ...current.steps, ...Object.fromEntries(fresh.map((r) => [r.step.name, { at: r.at }])) }, updatedAt: at },
          audit: fresh.map((r) => ({ at: r.at, action: `step.${r.step.name}`, outcome: 'done' as const, actor: PIPELINE_ACTOR, details: r.output.details })),
        };
      }, incident);
      deps.metrics.stepDuration.observe({ step: step.name, outcome: 'done' }, (performance.now() - started) / 1000);
      for (const r of batch) deps.afterStep?.(r.step.name, incident);
      if (incident.state === 'analyzing') progress.schedule(incident, { post: batch.some((r) => r.step === intakeStep) });
    }
    // The final state is asked for at once; it posts the card if the post was still pending. A
    // job run again after its worker died past the card step asks too: that request was lost.
    if (incident.state !== 'analyzing') {
      await progress.settle({ drop: true });
      await requestCard(incident, deps);
    }
  } finally {
    await progress.settle();
  }
  return incident;
}

/**
 * Asks the delivery job for the card in its final state. The post after intake and progress go
 * through the debounced updates, so a quick analysis queues one delivery, which posts its card.
 */
async function requestCard(incident: Incident, deps: PipelineDeps): Promise<void> {
  await deps.requestCard(incident.id, incident.version, 'final');
}

/** Marks an analysis that cannot go on (a policy or validation failure) and says so on the card. */
export async function failAnalysis(incidentId: string, reason: string, deps: PipelineDeps): Promise<void> {
  const at = deps.clock().toISOString();
  const incident = await deps.store.update(incidentId, (current) =>
    current.state === 'analyzing'
      ? { incident: { ...transition(current, 'reported', at), error: reason }, audit: [{ at, action: 'incident.analyze', outcome: 'failed', actor: PIPELINE_ACTOR, reason }] }
      : undefined,
  );
  await requestCard(incident, deps);
}
