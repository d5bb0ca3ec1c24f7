import { createHash } from 'node:crypto';

// Medic's own namespace for name-based UUIDs; fixed forever, or every stored point id changes.
const MEDIC_NAMESPACE = Buffer.from('6f1c3a52a9e44d0b8d6c2b7e4f9a1c37', 'hex');

/**
 * A deterministic RFC 4122 version-5 UUID for a document id. Qdrant accepts only unsigned integers
 * and UUIDs as point ids (anything else is a 400), so Medic's ids ("doc-…", "incident-…") map here
 * and the original travels in the payload.
 */
export function pointIdFor(docId: string): string {
  const hash = createHash('sha1').update(MEDIC_NAMESPACE).update(docId, 'utf8').digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50; // version 5
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80; // RFC 4122 variant
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
