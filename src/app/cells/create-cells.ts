import { createAuditLog } from '../../adapters/redis/audit-log.js';
import { claimCellLayout } from '../../adapters/redis/cell-layout.js';
import { createCellLocator, type CellLocator } from '../../adapters/redis/cell-locator.js';
import { cellOfService, cellPrefixes } from '../../domain/cells.js';
import { findService } from '../../domain/catalog/resolve-service.js';
import type { ErrorEvent } from '../../domain/event.js';
import type { IncidentState } from '../../domain/incident.js';
import type { PollDeps } from '../../../jobs/poll.js';
import { createMedic, setGauges, type GaugeReadings, type Medic, type MedicParts } from '../create-medic.js';
import { routeActions, routeCommands, routeGrouping } from './routed-commands.js';
import { createRoutedStore } from './routed-store.js';
import { cellReaders } from './cell-readers.js';

/** A Medic over several cells: each cell a whole Medic of its own, the whole one surface. */
export interface CelledMedic extends Medic {
  /** The cells, cell 0 first (one cell: this Medic itself). */
  cells: Medic[];
}

/**
 * Medic over MEDIC_REDIS_CELLS cells. One cell is the Medic Medic always was. With several, each
 * cell is a whole Medic under its own hash tag (src/domain/cells.ts) with its own queues and
 * workers. One poll (cell 0's) reads the log source and ingests each event in its service's cell.
 * The adapters are shared. The surfaces (Slack, commands, the CLI) reach an incident through the cell that holds
 * it and list every cell's; cell 0 answers the clicks the web role acks.
 */
export function createMedicCells(parts: MedicParts): CelledMedic {
  const { config, redis, adapters, metrics } = parts;
  const prefixes = cellPrefixes(config.MEDIC_REDIS_PREFIX, config.MEDIC_REDIS_CELLS);
  // The workers write nothing before the state's cell count is this one (see cell-layout.ts).
  const claim = () => claimCellLayout(redis, config.MEDIC_REDIS_PREFIX, prefixes.length);
  if (prefixes.length === 1) {
    const medic = createMedic(parts);
    return {
      ...medic, cells: [medic],
      async startWorkers(options) {
        await claim();
        await medic.startWorkers(options);
      },
    };
  }
  const locator = createCellLocator(redis, prefixes);
  const cellOfEvent = (event: ErrorEvent) => cellOfService(findService(adapters.catalog.current(), event.service)?.name ?? event.service, prefixes.length);
  const home = config.MEDIC_REDIS_PREFIX;
  const sharedAudit = createAuditLog(redis, home, { maxLen: config.MEDIC_AUDIT_MAXLEN });
  const cells: Medic[] = prefixes.map((prefix, n) =>
    createMedic({
      ...parts,
      config: { ...config, MEDIC_REDIS_PREFIX: prefix },
      cell: { home, sharedAudit, ...(n === 0 ? { clicks: () => ({ commands, ...(actions ? { actions } : {}) }), poll: (own: PollDeps) => ({ ...own, ...readerParts() }) } : {}) },
    }),
  );
  const first = cells[0]!;
  const store = createRoutedStore(cells.map((c) => c.store), locator, cellOfEvent);
  const commands = routeCommands(cells.map((c) => c.commands), locator);
  const actions = first.actions && routeActions(cells.map((c) => c.actions!), locator);
  const grouping = first.grouping && routeGrouping(cells.map((c) => c.grouping!), locator);
  // Cell 0's poll reads the source once for every cell: its checkpoint and miner are the whole's,
  // its events go to their cells' stores, its enqueues to their cells' queues.
  const readerParts = (): Pick<PollDeps, 'store' | 'enqueueAnalysis' | 'enqueueAnalyses' | 'enqueueCardRefresh' | 'enqueueCardRefreshes'> => ({ store, ...enqueueInCells(cells, locator) });
  const readGauges = async () => sumReadings(await Promise.all(cells.map((c) => c.readGauges())));

  return {
    ...first,
    cells, store, commands, audit: cellReaders(redis, config).audit, ...(actions ? { actions } : {}), ...(grouping ? { grouping } : {}),
    poll: { ...first.poll, ...readerParts() },
    readGauges,
    refreshGauges: async () => setGauges(metrics, await readGauges()),
    // doctor's card line counts every cell's deliveries.
    checks: () => first.checks(() => Promise.all(cells.map((c) => c.readCardDelivery()))),
    async startWorkers(options) {
      await claim();
      await adapters.prepare?.();
      for (const cell of cells) await cell.startWorkers(options);
    },
    async close() {
      await Promise.all(cells.map((c) => c.close()));
      await adapters.close?.();
    },
  };
}

/** The poll's enqueues, each in the queues of the cell that holds the incident. */
function enqueueInCells(cells: Medic[], locator: CellLocator) {
  const cellOf = async (id: string) => cells[(await locator.cellOf(id)) ?? 0]!;
  const grouped = async (ids: readonly string[], send: (cell: Medic, ids: string[]) => Promise<void>) => {
    const byCell = new Map<Medic, string[]>();
    for (const id of ids) {
      const cell = await cellOf(id);
      byCell.set(cell, [...(byCell.get(cell) ?? []), id]);
    }
    await Promise.all([...byCell].map(([cell, some]) => send(cell, some)));
  };
  return {
    enqueueAnalysis: async (id: string, round: number) => (await cellOf(id)).queues.enqueueAnalysis(id, round),
    enqueueAnalyses: (ids: readonly string[]) => grouped(ids, (cell, some) => cell.queues.enqueueAnalyses(some)),
    enqueueCardRefresh: async (id: string) => (await cellOf(id)).queues.enqueueCardRefresh(id),
    enqueueCardRefreshes: (ids: readonly string[]) => grouped(ids, (cell, some) => cell.queues.enqueueCardRefreshes(some)),
  };
}

function sumReadings(readings: GaugeReadings[]): GaugeReadings {
  const total: GaugeReadings = { queues: {}, cardsFailing: 0, byState: {} };
  for (const reading of readings) {
    total.cardsFailing += reading.cardsFailing;
    for (const [queue, counts] of Object.entries(reading.queues)) {
      const sum = (total.queues[queue] ??= {});
      for (const [state, n] of Object.entries(counts)) sum[state] = (sum[state] ?? 0) + n;
    }
    for (const [state, n] of Object.entries(reading.byState) as [IncidentState, number][]) total.byState[state] = (total.byState[state] ?? 0) + n;
  }
  return total;
}
