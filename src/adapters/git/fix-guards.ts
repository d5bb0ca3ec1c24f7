/**
 * The publisher's own guards, checked before anything is written: the branch is a fix branch,
 * the content is exactly what was approved, and the file on the up-to-date default branch is
 * still the one the proposal was made against.
 */
import { sha256 } from '../../domain/hash.js';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import { hashFixContent, type FixProposal } from '../../domain/fix.js';
import { assertRepoRelativePath } from '../../code-search/safe-read.js';

const INCIDENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const FIX_BRANCH = /^fix\/[A-Za-z0-9][A-Za-z0-9._-]{0,120}$/;

/** Medic pushes fix branches only; anything else (the default branch above all) is refused here. */
export function assertFixBranch(branch: string, defaultBranch: string): void {
  if (!FIX_BRANCH.test(branch) || branch.includes('..') || branch.endsWith('.lock') || branch === defaultBranch) {
    throw new MedicError(ErrorCode.FixRefused, `Refused branch "${branch.slice(0, 140)}": Medic only creates branches named fix/<incident>-<time>.`);
  }
}

export function assertIncidentId(incidentId: string): void {
  if (!INCIDENT_ID.test(incidentId)) throw new MedicError(ErrorCode.FixRefused, 'Refused fix: the incident id is not a plain identifier.');
}

/** The content to write hashes to what the approver saw, and it is text. */
export function assertApprovedContent(proposal: FixProposal): void {
  assertRepoRelativePath(proposal.file);
  if (hashFixContent(proposal.file, proposal.after) !== proposal.contentHash) {
    throw new MedicError(ErrorCode.FixRefused, `Refused fix for ${proposal.file}: the content differs from the approved proposal (hash mismatch).`);
  }
  if (proposal.after === proposal.before) throw new MedicError(ErrorCode.FixRefused, `Refused fix for ${proposal.file}: the proposed content is unchanged.`);
  if (proposal.after.includes('\0')) throw new MedicError(ErrorCode.FixRefused, `Refused fix for ${proposal.file}: the proposed content is binary.`);
}

export interface BaseEntry {
  mode: string;
  content: string;
}

/** The file as it is on the default branch now, against the proposal's base. */
export function assertBaseUnchanged(proposal: FixProposal, base: BaseEntry | undefined, incidentId: string, branch: string): void {
  const rerun = `Re-run \`/medic fix ${incidentId}\` for a fresh proposal.`;
  if (!base) throw new MedicError(ErrorCode.StaleApproval, `${proposal.file} no longer exists on ${branch}. ${rerun}`);
  if (base.mode === '120000') throw new MedicError(ErrorCode.FixRefused, `Refused fix for ${proposal.file}: it is a symlink in the repository.`);
  if (base.mode !== '100644' && base.mode !== '100755') throw new MedicError(ErrorCode.FixRefused, `Refused fix for ${proposal.file}: it is not a regular file (mode ${base.mode}).`);
  if (base.content.includes('\0')) throw new MedicError(ErrorCode.FixRefused, `Refused fix for ${proposal.file}: it is a binary file.`);
  if (sha256(base.content) !== proposal.baseHash) {
    throw new MedicError(ErrorCode.StaleApproval, `${proposal.file} changed on ${branch} after the fix was approved, so the approval no longer applies. ${rerun}`);
  }
  if (base.content === proposal.after) throw new MedicError(ErrorCode.FixRefused, `Refused fix for ${proposal.file}: the proposed content is unchanged from ${branch}.`);
}
