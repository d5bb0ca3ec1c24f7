import { createHash } from 'node:crypto';

/** Hex sha256 of a string; the content hash that binds approvals to proposals. */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** A short, stable id from any text (first 16 hex chars of sha256). */
export function shortHash(text: string): string {
  return sha256(text).slice(0, 16);
}

/** Canonical JSON (sorted keys) so that equal values hash equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)));
    }
    return v;
  });
}
