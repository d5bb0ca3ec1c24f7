import type { CellLocator } from '../../adapters/redis/cell-locator.js';
import type { IncidentCommands, IncidentView } from '../../use-cases/incident-commands.js';
import type { ActionCommands } from '../../use-cases/run-action.js';
import type { GroupingCommands } from '../../use-cases/grouping-commands.js';
import { newestFirst } from './routed-store.js';
import type { IncidentGrouping } from '../../ports/incident-grouping.js';
import { ErrorCode, MedicError } from '../../domain/errors.js';

/** Picks the cell's own surface for an incident; an id no cell holds goes to cell 0, which answers it as unknown. */
function router<T>(cells: T[], locator: CellLocator) {
  return async (incidentId: string): Promise<T> => cells[(await locator.cellOf(incidentId)) ?? 0]!;
}

/** The incidents of every cell, newest first, cut to the limit the caller asked for. */
function merged(views: IncidentView[][], limit?: number): IncidentView[] {
  const all = views.flat().sort(newestFirst((v) => v.incident));
  return limit === undefined ? all : all.slice(0, limit);
}

/** The commands every surface calls, answered by the cell that holds the incident. */
export function routeCommands(cells: IncidentCommands[], locator: CellLocator): IncidentCommands {
  const to = router(cells, locator);
  return {
    approve: async (input) => (await to(input.incidentId)).approve(input),
    reject: async (input) => (await to(input.incidentId)).reject(input),
    rerun: async (input) => (await to(input.incidentId)).rerun(input),
    status: async (incidentId, viewer) => (await to(incidentId)).status(incidentId, viewer),
    list: async (viewer, options = {}) => merged(await Promise.all(cells.map((c) => c.list(viewer, options))), options.limit),
    awaitingVerification: async (viewer) => merged(await Promise.all(cells.map((c) => c.awaitingVerification(viewer)))),
    timeline: async (incidentId, viewer) => (await to(incidentId)).timeline(incidentId, viewer),
    feedback: async (input) => (await to(input.incidentId)).feedback(input),
  };
}

export function routeActions(cells: ActionCommands[], locator: CellLocator): ActionCommands {
  const to = router(cells, locator);
  return {
    run: async (input) => (await to(input.incidentId)).run(input),
    requestStepUp: async (input) => (await to(input.incidentId)).requestStepUp(input),
    stepUpPrompt: async (input) => (await to(input.incidentId)).stepUpPrompt(input),
    confirmStepUp: async (input) => (await to(input.incidentId)).confirmStepUp(input),
  };
}

/** Grouping decisions, answered by the cell of the incident they name (a merge across cells is refused by the port below). */
export function routeGrouping(cells: GroupingCommands[], locator: CellLocator): GroupingCommands {
  const to = router(cells, locator);
  return {
    openFromOverflow: async (click) => (await to(click.overflowIncidentId)).openFromOverflow(click),
    merge: async (input) => (await to(input.incidentId)).merge(input),
    split: async (input) => (await to(input.incidentId)).split(input),
  };
}

/**
 * The gateway's grouping port, writing each decision in the cell whose store reads it. A merge
 * moves events between two incidents' keys in one atomic step, so both must live in one cell:
 * across cells it is refused.
 */
export function routeGroupingPort(cells: IncidentGrouping[], locator: CellLocator): IncidentGrouping {
  const to = router(cells, locator);
  return {
    async mergeIncidents(input) {
      const [from, into] = await Promise.all([locator.cellOf(input.incidentId), locator.cellOf(input.intoIncidentId)]);
      if (from !== undefined && into !== undefined && from !== into) {
        throw new MedicError(ErrorCode.Conflict, `${input.incidentId} and ${input.intoIncidentId} live in different cells (MEDIC_REDIS_CELLS): Medic merges incidents within one cell only.`);
      }
      return (await to(input.incidentId)).mergeIncidents(input);
    },
    splitFamily: async (input) => (await to(input.incidentId)).splitFamily(input),
    openFromOverflow: async (input) => (await to(input.overflowIncidentId)).openFromOverflow(input),
    overflowFamilyService: async (input) => (await to(input.overflowIncidentId)).overflowFamilyService(input),
  };
}
