import { ErrorCode, MedicError } from '../../domain/errors.js';
import { lineWords, type FixProposal } from '../../domain/fix.js';
import type { Incident } from '../../domain/incident.js';
import type { CodeCandidate } from '../../ports/analyst.js';
import type { PipelineDeps } from '../pipeline-deps.js';
import { recordLlmUse } from '../record-llm-use.js';
import type { Step, StepOutput } from '../step.js';

/**
 * The model drafts a one-file change; code decides whether it becomes a proposal. When there is
 * no valid draft — the offline analyzer never writes one, a model may decline or be refused — the
 * revert of a recent suspect commit is proposed instead, through the same validator. Without a
 * proposal the incident is reported with the reason, never half-fixed.
 */
export const fixProposalStep: Step = {
  name: 'fix-proposal',
  async run(incident, deps) {
    const { rca, recommendation } = incident;
    if (!rca || !recommendation) throw new MedicError(ErrorCode.Internal, `Incident ${incident.id} reached fix-proposal without an RCA.`);
    const same = incident.sameFailureAs;
    if (same && !incident.review) {
      // The fix is proposed once, on the first card; approving it there fixes this one too. A
      // person who asks for this incident's own analysis again (`/medic fix`) gets a proposal.
      const proposalNote = `Same failure as ${same.incidentId} (${same.service}): its card carries the one fix proposal; approving it there fixes both.`;
      return { patch: { proposal: undefined, proposalNote }, details: { proposed: false, sameFailureAs: same.incidentId } };
    }
    const candidates = await deps.searchCode({ incident });
    const { draft, note, provenance } = await deps.analystFor(incident.id).proposeFix({ event: incident.firstEvent, rca, recommendation, candidates, review: incident.review });
    recordLlmUse(deps.metrics, 'fix', provenance);
    const base = { provenance: { ...incident.provenance, fix: provenance }, tokens: { ...incident.tokens, fix: provenance.tokens } };
    const validated = draft ? deps.validateFix(draft, candidates) : undefined;
    if (validated !== undefined && typeof validated !== 'string') {
      return offer(incident, validated, base, { proposed: true, file: validated.file, contentHash: validated.contentHash });
    }
    const why = validated === undefined ? (note ?? 'No fix proposed.') : `Fix refused by validation: ${validated}`;
    const revert = proposeRevert(incident, candidates, deps);
    if (revert && typeof revert !== 'string') {
      return offer(incident, revert, base, { proposed: true, revertOf: revert.revertOf?.sha, file: revert.file, contentHash: revert.contentHash, instead: why });
    }
    const proposalNote = [why, typeof revert === 'string' ? revert : incident.revertNote].filter(Boolean).join(' ');
    return { patch: { ...base, proposal: undefined, proposalNote }, details: { proposed: false, note: proposalNote } };
  },
};

/**
 * The proposal, saying so plainly when a re-run (`/medic fix`) arrived at exactly the change it
 * replaces: the person who asked for the re-run decides again, told that this is the change
 * they (or another approver) already decided, never shown it as if it were new.
 */
function offer(incident: Incident, proposal: FixProposal, base: Partial<Incident>, details: Record<string, unknown>): StepOutput {
  const previous = incident.review?.previousProposal;
  if (previous?.contentHash !== proposal.contentHash) return { patch: { ...base, proposal, proposalNote: undefined }, details };
  const was = previous.verdict === 'rejected' ? ', which was rejected' : previous.verdict === 'approved' ? ', which was approved already' : '';
  const same = `Same change as before (${proposal.contentHash.slice(0, 12)})${was}: the re-run found nothing new.`;
  return { patch: { ...base, proposal: { ...proposal, explanation: `${same} ${proposal.explanation}` }, proposalNote: undefined }, details: { ...details, sameAsBefore: true, ...(previous.verdict ? { previousVerdict: previous.verdict } : {}) } };
}

/** The prepared revert as a proposal (validated like any fix), a refusal reason, or nothing to offer. */
function proposeRevert(incident: Incident, candidates: CodeCandidate[], deps: PipelineDeps) {
  const revert = incident.revert;
  if (!revert || deps.settings.revertProposals === false) return undefined;
  const explanation = `Reverts ${revert.sha.slice(0, 12)} "${revert.subject}" (${revert.author}, ${revert.ageDays} day(s) before the first error) at the failing lines of ${revert.file}${revert.lines?.length ? ` (${revert.lines.map(lineWords).join(', ')})` : ''}.${leftInPlace(revert)}`;
  const validated = deps.validateFix({ file: revert.file, after: revert.after, explanation }, candidates);
  if (typeof validated === 'string') return `The revert of ${revert.sha.slice(0, 8)} was refused by validation: ${validated}`;
  return { ...validated, revertOf: { sha: revert.sha, subject: revert.subject, author: revert.author, date: revert.date } };
}

/** What else the reverted commit changed, which the revert keeps: its other hunks here, its other files. */
function leftInPlace(revert: NonNullable<Incident['revert']>): string {
  const kept = revert.keptHunks ?? [];
  const parts = [
    kept.length ? `its other change${kept.length === 1 ? '' : 's'} to this file (${kept.slice(0, 3).map(lineWords).join(', ')}${kept.length > 3 ? ', …' : ''})` : '',
    revert.otherFiles?.length ? `its changes to ${listFiles(revert.otherFiles)}` : '',
  ].filter(Boolean);
  return parts.length ? ` It keeps ${parts.join(' and ')}.` : '';
}

/** `a.ts, b.ts and 3 more files`: a commit's other files, named on the card. */
function listFiles(files: readonly string[]): string {
  const shown = files.slice(0, 3).map((f) => `\`${f}\``);
  return files.length > 3 ? `${shown.join(', ')} and ${files.length - 3} more file(s)` : shown.join(', ');
}
