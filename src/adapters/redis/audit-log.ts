import type { RedisClient } from './connect.js';
import { AuditEvent } from '../../domain/audit.js';
import type { AuditLog } from '../../ports/audit.js';


export function auditKeys(prefix: string, incidentId?: string): string[] {
  return incidentId ? [`${prefix}audit`, `${prefix}audit:${incidentId}`] : [`${prefix}audit`];
}

/**
 * The append-only audit stream. Incident-scoped records also go to the incident's own stream so
 * `show` reads its trail without scanning everything. Both appends are one MULTI.
 */
export function createAuditLog(redis: RedisClient, prefix: string): AuditLog {
  return {
    async append(events) {
      if (events.length === 0) return;
      const multi = redis.multi();
      for (const event of events) {
        const record = JSON.stringify(AuditEvent.parse(event));
        for (const key of auditKeys(prefix, event.incidentId)) multi.xadd(key, '*', 'event', record);
      }
      const results = await multi.exec();
      const failed = results?.find(([error]) => error);
      if (!results || failed) throw new Error(`Audit append failed: ${String(failed?.[0] ?? 'transaction aborted')}`);
    },
    async list(options = {}) {
      const key = options.incidentId ? `${prefix}audit:${options.incidentId}` : `${prefix}audit`;
      const rows = options.count ? await redis.xrevrange(key, '+', '-', 'COUNT', options.count) : await redis.xrange(key, '-', '+');
      const events = rows.map(([, fields]) => AuditEvent.parse(JSON.parse(fields[1] ?? '{}')));
      return options.count ? events.reverse() : events;
    },
    async length(incidentId) {
      return redis.xlen(incidentId ? `${prefix}audit:${incidentId}` : `${prefix}audit`);
    },
  };
}
