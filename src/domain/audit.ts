import { z } from 'zod';
import { Actor } from './incident.js';

/**
 * One append-only audit record. Every step, every decision and every tool call (allowed or
 * denied) writes one; it is written before the result is reported and never for an action that
 * did not happen.
 */
export const AuditEvent = z.object({
  at: z.string(),
  action: z.string(),
  /** `unknown`: a call passed its deadline still running; a later record reconciles it. */
  outcome: z.enum(['done', 'allowed', 'denied', 'failed', 'unknown']),
  actor: Actor,
  incidentId: z.string().optional(),
  reason: z.string().optional(),
  traceId: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type AuditEvent = z.infer<typeof AuditEvent>;

export const PIPELINE_ACTOR: Actor = { kind: 'pipeline', id: 'medic' };
