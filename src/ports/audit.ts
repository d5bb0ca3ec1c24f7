import type { AuditEvent } from '../domain/audit.js';

/** The append-only audit trail (a Redis stream). */
export interface AuditLog {
  append(events: AuditEvent[]): Promise<void>;
  list(options?: { incidentId?: string; count?: number }): Promise<AuditEvent[]>;
  length(incidentId?: string): Promise<number>;
}
