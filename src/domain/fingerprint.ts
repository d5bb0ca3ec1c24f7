import { shortHash } from './hash.js';
import type { ErrorEvent } from './event.js';
import { parseStackTrace } from './stack-trace.js';

export interface Fingerprint {
  key: string;
  /** A readable title for the card: the template, with the exception type when known. */
  title: string;
}

const TOP_FRAMES = 3;

/**
 * The incident family of an event: service + message template + exception type + top in-app
 * frames (file and function, never line numbers, so a redeploy that shifts lines is the same
 * family). Deterministic and never derived from model output.
 */
export function fingerprintEvent(event: ErrorEvent, template: string): Fingerprint {
  const trace = parseStackTrace(event.raw);
  const frames = trace.frames
    .filter((f) => f.inApp)
    .slice(0, TOP_FRAMES)
    .map((f) => `${f.file.replace(/^.*?\/(src|lib|app)\//, '$1/')}#${f.fn ?? ''}`);
  const parts = [event.service, template, trace.exceptionType ?? '', ...frames];
  return {
    key: shortHash(parts.join('\u0001')),
    title: trace.exceptionType && !template.includes(trace.exceptionType) ? `${trace.exceptionType}: ${template}` : template,
  };
}
