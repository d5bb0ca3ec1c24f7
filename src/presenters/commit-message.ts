/**
 * The fix commit's subject: `fix(<service>): <what failed>`, within the subject rules. The
 * incident id goes in the trailers, so the publisher never needs to prefix it a second time.
 */
import { clipSubject, trimTrailing } from '../domain/commit-subject.js';

/** A template's `<*>` placeholders say nothing in a subject line; they are dropped. */
export function presentCommitSubject(input: { service: string; title: string }): string {
  const what = trimTrailing(input.title.replace(/<\*>/g, ' ').replace(/\s+/g, ' ').replace(/ ([:;,.])/g, '$1')).trim() || 'apply the approved fix';
  return clipSubject(`fix(${input.service}): ${what}`);
}
