import type { RedisClient } from './connect.js';
import { AuditEvent } from '../../domain/audit.js';
import type { AuditLog } from '../../ports/audit.js';


export function auditKeys(prefix: string, incidentId?: string): string[] {
  return incidentId ? [`${prefix}audit`, `${prefix}audit:${incidentId}`] : [`${prefix}audit`];
}

/**
 * The append-only audit stream. Incident-scoped records also go to the incident's own stream so
 * `show` reads its trail without scanning everything. Both appends are one MULTI. The streams are
 * capped (`MAXLEN ~`: Redis trims whole nodes, so a stream may run a little over `maxLen`); the
 * forwarders (Splunk HEC, the JSON-lines archive) keep the full history where it is wanted.
 */
export function createAuditLog(redis: RedisClient, prefix: string, options: { maxLen?: number } = {}): AuditLog {
  const maxLen = options.maxLen ?? 1_000_000;
  return {
    async append(events) {
      if (events.length === 0) return;
      const multi = redis.multi();
      for (const event of events) {
        const record = JSON.stringify(AuditEvent.parse(event));
        auditKeys(prefix, event.incidentId).forEach((key, i) => multi.xadd(key, 'MAXLEN', '~', i === 0 ? maxLen : Math.min(maxLen, 10_000), '*', 'event', record));
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
