import type { ErrorEvent } from './event.js';
import { shortHash } from './hash.js';
import { eventTrace } from './event-trace.js';
import { topInAppFrames } from './top-frames.js';

/**
 * The repository a service's code lives in, or undefined when nothing says. Two services share a
 * repository when this answers the same for both. The default is the one configured repository.
 */
export type RepositoryOf = (service: string) => string | undefined;

export const ONE_REPOSITORY: RepositoryOf = () => 'default';

export interface FailureSignature {
  /** Equal for the same failure whichever service reports it. */
  key: string;
  /** `stack`: exception type and top in-app frames; `family`: the mined message family (no in-app frame to go by). */
  kind: 'stack' | 'family';
}

/**
 * What makes two services' incidents one failure: the exception type and top in-app frames
 * (normalized like the fingerprint's, without the service), or — when the event carries no in-app
 * frame — the message family. Both are scoped to the repository, because a fix is one file in one
 * repository: a link across repositories would withhold the second repository's fix. Pure; no
 * per-system rule. Undefined when the service's repository is unknown or there is nothing to go by.
 */
export function failureSignature(event: ErrorEvent, familyId: string | undefined, repositoryOf: RepositoryOf = ONE_REPOSITORY): FailureSignature | undefined {
  const repository = repositoryOf(event.service);
  if (repository === undefined) return undefined;
  const trace = eventTrace(event);
  const frames = topInAppFrames(trace);
  if (frames.length > 0) {
    return { kind: 'stack', key: `stack:${shortHash([repository, trace.exceptionType ?? '', ...frames].join('\u0001'))}` };
  }
  if (!familyId) return undefined;
  return { kind: 'family', key: `family:${shortHash([repository, familyId].join('\u0001'))}` };
}

/** The message family an incident was keyed on: the mined one, else the family half of its `<scope>:<family>` fingerprint. */
export function familyIdOf(incident: { fingerprint: string; family?: { groupId: string } | undefined }): string | undefined {
  if (incident.family) return incident.family.groupId;
  const cut = incident.fingerprint.indexOf(':');
  return cut > 0 ? incident.fingerprint.slice(cut + 1) : undefined;
}
