import { PIPELINE_ACTOR } from '../domain/audit.js';
import { ErrorCode, MedicError, isMedicError } from '../domain/errors.js';
import { fixBranchName, type FixResult } from '../domain/fix.js';
import { isStepDone, transition, type FixStep, type Incident } from '../domain/incident.js';
import { redactSecrets } from '../domain/untrusted/redact.js';
import { inertGitText } from '../domain/untrusted/inert-git-text.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import { observeTimeTo } from '../observability/time-to.js';
import type { IncidentStore } from '../ports/incident-store.js';
import { presentThreadReply } from '../presenters/thread-reply.js';
import { clipSubject } from '../domain/commit-subject.js';
import { presentCommitSubject } from '../presenters/commit-message.js';
import { presentPullRequestBody, presentPullRequestTitle } from '../presenters/pull-request-body.js';
import type { CardDeliveries } from '../ports/card-delivery.js';
import type { FixPublisher, PullRequests } from '../ports/code.js';
import { startVerification, type VerifySettings } from '../domain/verification.js';

export interface FixDeps {
  store: IncidentStore;
  /** The card and its thread: durable deliveries, so Slack never decides a fix's outcome. */
  deliveries: CardDeliveries;
  publisher: FixPublisher;
  pullRequests: PullRequests;
  clock: () => Date;
  logger: Logger;
  metrics: Metrics;
  afterStep?: (step: string, incident: Incident) => void;
  /** Writes a fixed incident back to the documents. */
  learn?: (incident: Incident) => Promise<void>;
  /** Starts watching the PR's check runs, where the code host has them. */
  watchChecks?: (incident: Incident) => Promise<void>;
  /**
   * Verification after the merge, where the code host can tell a merge: the service's settings
   * (written into the record with the push) and the start of the job that follows the fix.
   */
  verify?: { settingsFor(service: string): VerifySettings; watch(incident: Incident): Promise<void> };
}

/**
 * Applies exactly the approved proposal: one branch, one commit, one push, one PR, one thread
 * reply. Each step is checkpointed like the analysis, and each side effect is idempotent by key,
 * so a retried job never pushes twice or replies twice. The outcome is the push and the PR: the
 * card and the thread replies are deliveries of their own, which wait for the card when it is not
 * posted yet and are retried until Slack takes them, so Slack can never fail a pushed fix.
 */
export async function runFix(incidentId: string, proposalHash: string, deps: FixDeps): Promise<Incident> {
  const now = () => deps.clock().toISOString();
  let incident = await deps.store.update(incidentId, (current) => {
    assertBinding(current, proposalHash);
    if (current.state !== 'approved') return undefined;
    return { incident: transition(current, 'fixing', now()), audit: [{ at: now(), action: 'fix.start', outcome: 'done', actor: PIPELINE_ACTOR, details: { proposalHash } }] };
  });
  if (incident.state !== 'fixing') return incident;
  await updateCard(incident, deps);

  const record = async (step: FixStep, patch: Partial<Incident>, details: Record<string, unknown>) => {
    const at = now();
    incident = await deps.store.update(incidentId, (current) =>
      isStepDone(current, step) || current.state !== 'fixing'
        ? undefined
        : { incident: { ...current, ...patch, steps: { ...current.steps, [step]: { at } }, updatedAt: at }, audit: [{ at, action: `step.${step}`, outcome: 'done', actor: PIPELINE_ACTOR, details }] },
    );
    deps.afterStep?.(step, incident);
  };

  if (!isStepDone(incident, 'publish')) {
    const proposal = incident.proposal!;
    // A re-run's fix is a branch of its own even when both approvals fall in one second.
    const branch = fixBranchName(incident.round > 0 ? `${incident.id}-r${incident.round}` : incident.id, incident.decision!.at);
    try {
      const published = await deps.publisher.publish({ incidentId, branch, proposal, message: commitMessage(incident) });
      const fix: FixResult = { branch: published.branch, commit: published.commit, pushStatus: published.pushStatus, pushError: published.pushError };
      await record('publish', { fix }, { branch: fix.branch, commit: fix.commit, pushStatus: fix.pushStatus });
      if (fix.pushStatus === 'pushed' && incident.fix?.commit === fix.commit) observeTimeTo(deps.metrics, incident, 'push', incident.steps.publish?.at ?? now());
    } catch (error) {
      if (isMedicError(error) && !error.transient) return finishFailed(incident, error.message, deps);
      throw error;
    }
  }
  if (!isStepDone(incident, 'pull-request')) {
    const fix = incident.fix!;
    const pr = fix.pushStatus === 'pushed' ? await deps.pullRequests.open({ branch: fix.branch, title: presentPullRequestTitle(pullRequestInput(incident)), body: presentPullRequestBody(pullRequestInput(incident)), ...(incident.proposal ? { file: incident.proposal.file } : {}) }) : undefined;
    await record('pull-request', { fix: { ...fix, pullRequest: pr } }, { pullRequest: pr?.url ?? null });
  }
  if (!isStepDone(incident, 'thread-reply')) {
    const key = `fix:${incident.id}:${proposalHash}`;
    await deps.deliveries.requestReply(incident.id, `${key}:branch`, presentThreadReply({ incident }, 'branch'));
    if (incident.fix?.pushStatus === 'pushed') await deps.deliveries.requestReply(incident.id, `${key}:pr`, presentThreadReply({ incident }, 'pull-request'));
    await record('thread-reply', {}, {});
  }
  const at = now();
  incident = await deps.store.update(incidentId, (current) => {
    if (current.state !== 'fixing') return undefined;
    const ok = current.fix?.pushStatus === 'pushed';
    const verification = ok && deps.verify ? startVerification(at, deps.verify.settingsFor(current.service)) : undefined;
    return {
      incident: { ...transition(current, ok ? 'fixed' : 'fix_failed', at), error: ok ? undefined : current.fix?.pushError, verification },
      audit: [{ at, action: 'fix.finish', outcome: ok ? 'done' : 'failed', actor: PIPELINE_ACTOR, reason: ok ? undefined : current.fix?.pushError }],
    };
  });
  await updateCard(incident, deps);
  if (incident.state === 'fixed') await deps.learn?.(incident);
  if (incident.state === 'fixed' && incident.fix?.pullRequest) await deps.watchChecks?.(incident);
  if (incident.state === 'fixed' && incident.verification) await deps.verify?.watch(incident);
  return incident;
}

function assertBinding(incident: Incident, proposalHash: string): void {
  const bound = incident.decision?.verdict === 'approved' && incident.decision.proposalHash === proposalHash && incident.proposal?.contentHash === proposalHash;
  if (!bound) {
    throw new MedicError(ErrorCode.StaleApproval, `The approval for incident ${incident.id} does not match its current proposal; re-run with \`/medic fix ${incident.id}\`.`);
  }
}

/** Marks a fix that will not complete (retries exhausted) as failed, so the card says why. */
export async function abandonFix(incidentId: string, reason: string, deps: FixDeps): Promise<Incident> {
  return finishFailed(await deps.store.require(incidentId), reason, deps);
}

/**
 * Ends a fix that will not complete. A fix whose branch was pushed is fixed whatever failed after
 * the push (its PR, its bookkeeping): telling the approver it failed would invite a second branch.
 */
async function finishFailed(incident: Incident, reason: string, deps: FixDeps): Promise<Incident> {
  const at = deps.clock().toISOString();
  const ended = await deps.store.update(incident.id, (current) => {
    if (current.state !== 'fixing') return undefined;
    if (current.fix?.pushStatus === 'pushed') {
      return { incident: transition(current, 'fixed', at), audit: [{ at, action: 'fix.finish', outcome: 'done', actor: PIPELINE_ACTOR, reason: `pushed; a later step failed: ${reason}` }] };
    }
    return { incident: { ...transition(current, 'fix_failed', at), error: reason }, audit: [{ at, action: 'fix.finish', outcome: 'failed', actor: PIPELINE_ACTOR, reason }] };
  });
  await updateCard(ended, deps);
  return ended;
}

/** Asks for the card to show the fix's state; the request is a Redis write, never a Slack call. */
async function updateCard(incident: Incident, deps: FixDeps): Promise<void> {
  try {
    await deps.deliveries.requestCard(incident.id, incident.version, 'final');
  } catch (error) {
    // The sweep compares every open card with its incident and asks again.
    deps.logger.warn({ incidentId: incident.id, err: error }, 'could not request the card; the sweep repairs it');
  }
}

function commitMessage(incident: Incident): string {
  const revert = incident.proposal?.revertOf;
  if (revert) {
    const subject = clipSubject(`Revert "${revert.subject.split('\n', 1)[0] ?? ''}"`);
    const body = [
      `This reverts commit ${revert.sha}'s change to ${incident.proposal?.file ?? ''}: it last changed the failing line of Medic incident ${incident.id}.`,
      `Approved by ${incident.decision?.actor.name ?? incident.decision?.actor.id ?? 'unknown'}.`,
    ];
    return inertGitText(redactSecrets([subject, '', ...body].join('\n')));
  }
  const subject = presentCommitSubject(incident);
  // One line: a model's root cause spread over lines could end in a trailer of its own (`Co-authored-by:`).
  const body = [`Medic incident ${incident.id}.`, incident.rca ? `Root cause: ${incident.rca.rootCause.replace(/\s+/g, ' ').trim()}` : '', `Approved by ${incident.decision?.actor.name ?? incident.decision?.actor.id ?? 'unknown'}.`];
  return inertGitText(redactSecrets([subject, '', ...body.filter(Boolean)].join('\n')));
}

function pullRequestInput(incident: Incident) {
  return {
    incidentId: incident.id,
    incidentTitle: incident.title,
    rootCause: incident.rca?.rootCause ?? 'undetermined',
    confidence: incident.rca?.confidence ?? 0,
    evidence: (incident.rca?.evidenceIds ?? []).flatMap((id) => incident.logs?.entries.find((e) => e.id === id)?.message.split('\n', 1) ?? []),
    approver: incident.decision?.actor.name ?? incident.decision?.actor.id ?? 'unknown',
    file: incident.proposal?.file ?? '',
    explanation: incident.proposal?.explanation ?? '',
    recommendation: incident.recommendation?.summary,
  };
}
