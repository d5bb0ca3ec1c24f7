/**
 * The model proposes; code decides. A proposed fix must name one of the search candidates by its
 * exact relative path, stay inside the repository, leave protected files alone (CI, manifests,
 * lockfiles, build scripts, git's and Medic's own files), be text, fit a size cap, really change the file
 * and change few enough lines for a human to review in a Slack card.
 */
import { diffLines } from 'diff';
import { createFixProposal, type FixProposal } from '../domain/fix.js';
import { findUnshowableAddition } from './added-lines.js';
import type { CodeCandidate, DraftFix } from '../ports/analyst.js';
import { protectedPathReason } from '../code-search/protected-paths.js';

export interface FixLimits {
  maxFileBytes: number;
  maxChangedLines: number;
  /** Protected files the operator allows a fix to change (MEDIC_FIX_ALLOW_PROTECTED). */
  allowProtected?: readonly string[];
  /** Medic's action policy, when it lives in the service's repository. */
  policyFile?: string;
}

export const DEFAULT_FIX_LIMITS: FixLimits = { maxFileBytes: 200_000, maxChangedLines: 60 };

export type FixValidation = { ok: true; draft: DraftFix; proposal: FixProposal } | { ok: false; reason: string };

export function isSafeRelativePath(file: string): boolean {
  if (file.length === 0 || file.length > 512) return false;
  if (file.startsWith('/') || file.startsWith('\\') || /^[A-Za-z]:/.test(file)) return false;
  if (file.includes('\\') || file.includes('\u0000')) return false;
  return file.split('/').every((segment) => segment !== '..' && segment !== '.' && segment !== '' && segment !== '.git');
}

export function looksBinary(text: string): boolean {
  if (text.includes('\u0000')) return true;
  const sample = text.slice(0, 8_000);
  // ESC counts: terminal escape sequences are control bytes a reviewer cannot see.
  const controls = sample.match(/[\u0001-\u0008\u000B\u000C\u000E-\u001F\u007F]/g)?.length ?? 0; // eslint-disable-line no-control-regex -- counting control bytes is the point
  return sample.length > 0 && controls / sample.length > 0.01;
}

/** Lines added plus lines removed, the size a reviewer has to read. */
export function countChangedLines(before: string, after: string): number {
  return diffLines(before, after).reduce((sum, part) => (part.added || part.removed ? sum + (part.count ?? 0) : sum), 0);
}

function matchLineEndings(before: string, after: string): string {
  // Models answer with \n; a CRLF file would otherwise show every line as changed.
  return before.includes('\r\n') && !after.includes('\r\n') ? after.replace(/\n/g, '\r\n') : after;
}

export function validateFix(
  answer: { file: string | null; newContent: string | null; explanation: string },
  candidates: CodeCandidate[],
  limits: FixLimits = DEFAULT_FIX_LIMITS,
): FixValidation {
  if (answer.file === null || answer.newContent === null) {
    return { ok: false, reason: `The model declined to propose a change: ${answer.explanation.slice(0, 300) || 'no reason given'}` };
  }
  const file = answer.file.trim();
  if (!isSafeRelativePath(file)) return { ok: false, reason: `Refused a fix for "${file.slice(0, 120)}": the path must be relative and inside the repository.` };
  const candidate = candidates.find((c) => c.file === file);
  if (!candidate) return { ok: false, reason: `Refused a fix for "${file.slice(0, 120)}": it is not one of the ${candidates.length} candidate file(s) found by code search.` };
  const guarded = protectedPathReason(file, { allow: limits.allowProtected, policyFile: limits.policyFile });
  if (guarded) return { ok: false, reason: `Refused a fix: ${guarded}.` };
  if (looksBinary(answer.newContent) || looksBinary(candidate.content)) return { ok: false, reason: `Refused a fix for ${file}: binary content cannot be reviewed in a card.` };
  // The model saw the file redacted; writing a marker back would destroy a real value.
  if (/\[REDACTED:[a-z-]+\]/.test(answer.newContent) && !candidate.content.includes('[REDACTED:')) {
    return { ok: false, reason: `Refused a fix for ${file}: it would write a redaction marker over a value the model never saw; edit this file by hand.` };
  }
  const after = matchLineEndings(candidate.content, answer.newContent);
  const bytes = Buffer.byteLength(after, 'utf8');
  if (bytes > limits.maxFileBytes) return { ok: false, reason: `Refused a fix for ${file}: ${bytes} bytes is over the ${limits.maxFileBytes}-byte cap (MEDIC_FIX_MAX_FILE_BYTES).` };
  if (after === candidate.content || after.trimEnd() === candidate.content.trimEnd()) {
    return { ok: false, reason: `Refused a fix for ${file}: the proposed content does not change the file.` };
  }
  const changed = countChangedLines(candidate.content, after);
  if (changed > limits.maxChangedLines) {
    return { ok: false, reason: `Refused a fix for ${file}: it changes ${changed} lines, over the ${limits.maxChangedLines}-line limit (MEDIC_FIX_MAX_LINES); investigate by hand.` };
  }
  const unshowable = findUnshowableAddition(candidate.content, after);
  if (unshowable) return { ok: false, reason: `Refused a fix for ${file}: ${unshowable}; an approver must see exactly what is pushed, so edit this file by hand.` };
  const explanation = answer.explanation.slice(0, 2_000);
  return { ok: true, draft: { file, after, explanation }, proposal: createFixProposal({ file, before: candidate.content, after, explanation }) };
}
