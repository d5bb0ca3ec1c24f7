import type { CellLocator } from '../../adapters/redis/cell-locator.js';
import type { Incident } from '../../domain/incident.js';
import type { ErrorEvent } from '../../domain/event.js';
import type { IncidentStore, IngestOptions } from '../../ports/incident-store.js';

/** Newest first, as every store lists (its creation time; ids break ties so the order is total). */
export function newestFirst<T>(of: (item: T) => Incident): (a: T, b: T) => number {
  return (a, b) => of(b).createdAt.localeCompare(of(a).createdAt) || of(b).id.localeCompare(of(a).id);
}

/**
 * What a cell's ingest is given of the whole's options: its share of the hourly cap (so the cells
 * together stay within it, plus one per cell), and an overflow incident of its own id.
 */
function cellOptions(options: IngestOptions, cell: number, count: number): IngestOptions {
  return {
    ...(options.caps ? { caps: { ...options.caps, perHour: Math.ceil(options.caps.perHour / count) } } : {}),
    ...(options.overflow ? { overflow: { ...options.overflow, id: `${options.overflow.id}-c${cell}` } } : {}),
  };
}

/**
 * One incident store over every cell: what names an incident goes to the cell holding it, what
 * asks about all incidents asks every cell and merges the answers. Each cell's own jobs use their
 * cell's store directly; this one serves the surfaces (CLI, Slack commands, replays).
 */
export function createRoutedStore(cells: IncidentStore[], locator: CellLocator, cellOfEvent: (event: ErrorEvent) => number): IncidentStore {
  // An id no cell holds goes to cell 0, which answers as a store answers for an unknown id.
  const cellFor = async (id: string) => cells[(await locator.cellOf(id)) ?? 0]!;
  const all = <T>(ask: (store: IncidentStore) => Promise<T>) => Promise.all(cells.map(ask));
  const sum = async (ask: (store: IncidentStore) => Promise<number>) => (await all(ask)).reduce((a, b) => a + b, 0);
  return {
    async ingest(inputs, nowMs, options = {}) {
      const results = new Array<Awaited<ReturnType<IncidentStore['ingest']>>[number]>(inputs.length);
      // A family merge holds in every cell that holds the family: it runs in each, after the
      // events before it and before the events after it, as one store runs it.
      for (let start = 0; start < inputs.length; ) {
        let end = start + 1;
        while (end < inputs.length && !inputs[end]!.merges?.length) end++;
        const merges = inputs[start]!.merges;
        if (merges?.length) await Promise.all(cells.map((cell) => cell.mergeFamilies(merges, nowMs)));
        const byCell = new Map<number, number[]>();
        for (let i = start; i < end; i++) {
          const cell = cellOfEvent(inputs[i]!.event);
          byCell.set(cell, [...(byCell.get(cell) ?? []), i]);
        }
        // The cells are separate slots, on separate masters: their parts go at once.
        await Promise.all([...byCell].map(async ([cell, at]) => {
          const part = at.map((i) => (i === start && merges ? { ...inputs[i]!, merges: undefined } : inputs[i]!));
          const answered = await cells[cell]!.ingest(part, nowMs, cellOptions(options, cell, cells.length));
          answered.forEach((result, k) => (results[at[k]!] = result));
        }));
        start = end;
      }
      return results;
    },
    mergeFamilies: async (merges, nowMs) => void (await all((store) => store.mergeFamilies(merges, nowMs))),
    get: async (id) => (await cellFor(id)).get(id),
    require: async (id) => (await cellFor(id)).require(id),
    update: async (id, mutate, known, options) => (await cellFor(id)).update(id, mutate, known, options),
    async list(options = {}) {
      const found = (await all((store) => store.list(options))).flat().sort(newestFirst((i) => i));
      return found.slice(0, options.limit ?? 1000);
    },
    pendingOrders: async () => (await all((store) => store.pendingOrders())).flat(),
    completeOrder: async (order) => (await cellFor(order.incidentId)).completeOrder(order),
    pruneExpired: (nowMs) => sum((store) => store.pruneExpired(nowMs)),
    async countByState() {
      const total: Awaited<ReturnType<IncidentStore['countByState']>> = {};
      for (const counts of await all((store) => store.countByState())) {
        for (const [state, n] of Object.entries(counts) as [keyof typeof total, number][]) total[state] = (total[state] ?? 0) + n;
      }
      return total;
    },
    stats: async (id) => (await cellFor(id)).stats(id),
    eventRate: async (id) => (await cellFor(id)).eventRate(id),
    holdFamily: async (incident, windowMs) => (await cellFor(incident.id)).holdFamily(incident, windowMs),
    recentEvents: async (id, limit) => (await cellFor(id)).recentEvents(id, limit),
    pendingAnalysis: async () => (await all((store) => store.pendingAnalysis())).flat(),
    clearPending: async (id) => (await cellFor(id)).clearPending(id),
    pruneProcessed: (olderThanMs) => sum((store) => store.pruneProcessed(olderThanMs)),
    releaseFingerprint: async (incident) => (await cellFor(incident.id)).releaseFingerprint(incident),
    async quietIncidents(cutoffMs, limit) {
      const found = (await all((store) => store.quietIncidents(cutoffMs, limit))).flat().sort((a, b) => a.lastEventMs - b.lastEventMs);
      return limit === undefined ? found : found.slice(0, limit);
    },
    lastEventMs: async (id) => (await cellFor(id)).lastEventMs(id),
    suppressedFamilies: (overflowFingerprint) => sum((store) => store.suppressedFamilies(overflowFingerprint)),
    finishMerges: async () => (await all((store) => store.finishMerges())).flat(),
    resolve: async (id) => (await cellFor(id)).resolve(id),
    openIncidentOf: async (fingerprint) => (await all((store) => store.openIncidentOf(fingerprint))).find((id) => id !== undefined),
    async groupingDecisions() {
      const decisions = await all((store) => store.groupingDecisions());
      return { aliases: new Map(decisions.flatMap((d) => [...d.aliases])), splits: new Map(decisions.flatMap((d) => [...d.splits])) };
    },
    async overflowFamilies(overflowFingerprint, limit) {
      const found = (await all((store) => store.overflowFamilies(overflowFingerprint, limit))).flat().sort((a, b) => b.volume - a.volume);
      return limit === undefined ? found : found.slice(0, limit);
    },
  };
}
