/**
 * Fences untrusted text for the model: `<<untrusted-logs nonce=…>>` … `<</untrusted-logs nonce=…>>`.
 * The nonce is fresh per call (randomness comes in as a parameter: the domain does no I/O), and
 * anything inside the content that looks like a fence delimiter is neutralized, so even content
 * that guesses the format cannot close the fence early or open a fake one.
 */
import { normalizeUntrusted } from './invisible.js';

const LABEL = /^[a-z][a-z0-9-]{0,39}$/;
const NONCE = /^[A-Za-z0-9]{8,64}$/;
/** `<<` or `>>` next to an `untrusted` word, with optional slash and spacing: every delimiter shape. */
const DELIMITER = /<<\s*\/?\s*untrusted[^\n<>]{0,80}(?:>>)?|untrusted[^\n<>]{0,80}>>/gi;

export interface Fence {
  open: string;
  close: string;
}

export function fenceFor(label: string, nonce: string): Fence {
  if (!LABEL.test(label)) throw new Error(`fence label must be kebab-case letters, got "${label}"`);
  if (!NONCE.test(nonce)) throw new Error('fence nonce must be 8-64 letters or digits');
  return { open: `<<untrusted-${label} nonce=${nonce}>>`, close: `<</untrusted-${label} nonce=${nonce}>>` };
}

/** Makes content inert inside a fence: look-alikes folded, invisibles stripped, delimiters broken. */
export function neutralizeFenceMarkers(content: string, nonce: string): string {
  return normalizeUntrusted(content)
    .split(nonce)
    .join('[nonce]')
    .replace(DELIMITER, (match) => match.replace(/<</g, '‹‹').replace(/>>/g, '››'));
}

export function fenceUntrusted(label: string, content: string, nonce: string): string {
  const { open, close } = fenceFor(label, nonce);
  return `${open}\n${neutralizeFenceMarkers(content, nonce)}\n${close}`;
}

/** What lies between the first open and the first close of this fence; undefined if it is broken. */
export function readFenced(text: string, label: string, nonce: string): string | undefined {
  const { open, close } = fenceFor(label, nonce);
  const start = text.indexOf(open);
  const end = text.indexOf(close, start + open.length);
  if (start < 0 || end < 0) return undefined;
  return text.slice(start + open.length + 1, end - 1);
}
