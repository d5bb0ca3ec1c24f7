import type { AuditLog } from '../../ports/audit.js';

/**
 * Audit trails read as one: a cell's own with the trail kept across cells (cell 0's, where the
 * gateway's tool calls are), or every cell's for the command line. Appends go to the first.
 */
export function mergeAudits(trails: AuditLog[]): AuditLog {
  const [own] = trails;
  if (!own) throw new Error('mergeAudits needs at least one trail');
  if (trails.length === 1) return own;
  return {
    append: (events) => own.append(events),
    async list(options = {}) {
      const lists = await Promise.all(trails.map((trail) => trail.list(options)));
      // Each list is in order already; a stable sort by time interleaves them.
      const all = lists.flat().sort((a, b) => a.at.localeCompare(b.at));
      return options.count ? all.slice(-options.count) : all;
    },
    length: async (incidentId) => (await Promise.all(trails.map((trail) => trail.length(incidentId)))).reduce((a, b) => a + b, 0),
  };
}
