import { shortHash } from './hash.js';
import type { ErrorEvent } from './event.js';
import { recentMemo } from './recent-memo.js';
import { eventTrace, eventTraceShape } from './event-trace.js';
import type { MinedTemplate } from './templates/template-miner.js';
import { topInAppFrames } from './top-frames.js';

export interface Fingerprint {
  /** `<scope>:<family>`: the incident family's key. */
  key: string;
  /** Service, exception type and top in-app frames, hashed: what a family merge never crosses. */
  scope: string;
  /** The message family (the miner's stable group id). */
  family: string;
  /** A readable title for the card: the template, with the exception type when known. */
  title: string;
}

/**
 * A storm repeats the same trace thousands of times, its line numbers drifting at most: what a
 * family's scope needs of a trace is worked out once per service and trace shape.
 */
const scopes = recentMemo<{ scope: string; exceptionType?: string }>(4_096);

function scopeOf(event: ErrorEvent, service: string): { scope: string; exceptionType?: string } {
  const trace = eventTrace(event);
  const frames = topInAppFrames(trace);
  return { scope: shortHash([service, trace.exceptionType ?? '', ...frames].join('\u0001')), exceptionType: trace.exceptionType };
}

/**
 * The incident family of an event: service + message family + exception type + top in-app
 * frames (file and function, never line numbers, so a redeploy that shifts lines is the same
 * family). The message family is the miner's group, or, without a miner, the masked template
 * itself. `service` is the declared service the log's name belongs to (the log name itself when
 * none is declared), so a failure reported under a service's alias is the same family.
 * Deterministic and never derived from model output.
 */
export function fingerprintEvent(event: ErrorEvent, family: MinedTemplate | string, service: string = event.service): Fingerprint {
  const { scope, exceptionType } = scopes(`${service}\u0003${eventTraceShape(event)}`, () => scopeOf(event, service));
  const template = typeof family === 'string' ? family : family.template;
  const familyId = typeof family === 'string' ? shortHash(family) : family.groupId;
  return {
    key: `${scope}:${familyId}`,
    scope,
    family: familyId,
    title: exceptionType && !template.includes(exceptionType) ? `${exceptionType}: ${template}` : template,
  };
}
