/**
 * Pure: the per-service text that marks a deploy in the logs (`deployed version`, `Started
 * Application in`). Like the grouping rules' `message`, it is literal text a line contains, matched
 * without regard to case — never a regular expression, so an operator's pattern cannot backtrack
 * catastrophically or smuggle search syntax into Splunk (it is quoted as one term there).
 */
import { ErrorCode, MedicError } from './errors.js';

export const MAX_LOG_PATTERN = 200;
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The pattern as matched, or a coded error saying what to change. */
export function assertLogLinePattern(pattern: string): string {
  const text = pattern.trim();
  if (text.length === 0) throw new MedicError(ErrorCode.ValidationFailed, 'A deploy log pattern must not be empty.');
  if (text.length > MAX_LOG_PATTERN) throw new MedicError(ErrorCode.ValidationFailed, `A deploy log pattern is at most ${MAX_LOG_PATTERN} characters (got ${text.length}).`);
  if (CONTROL.test(text)) throw new MedicError(ErrorCode.ValidationFailed, 'A deploy log pattern is one line of plain text (no control characters).');
  return text;
}

/** Whether `line` contains `pattern` (already checked), ignoring case. */
export function lineMatches(line: string, pattern: string): boolean {
  return line.toLowerCase().includes(pattern.toLowerCase());
}
