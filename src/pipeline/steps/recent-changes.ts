import type { SuspectCommit } from '../../domain/analysis.js';
import type { Incident } from '../../domain/incident.js';
import { upstreamFailureOf } from '../../domain/upstream-failure.js';
import type { PipelineDeps } from '../pipeline-deps.js';
import type { Step } from '../step.js';

export const DEFAULT_REVERT_MAX_AGE_DAYS = 14;

/**
 * Code-search candidates, the recent commits touching the suspects, and the suspect commits —
 * the commits that last changed the top frames' lines — with, when the most suspect is recent and
 * undoes cleanly at the failing lines, its revert. Commit text is untrusted, like logs.
 */
export const recentChangesStep: Step = {
  name: 'recent-changes',
  async run(incident, deps) {
    try {
      // Blame needs neither the candidates nor the log: it reads git while code search ranks.
      const [found, suspects] = await Promise.all([searchAndLog(incident, deps).catch((error: unknown) => ({ error })), findSuspects(incident, deps)]);
      if ('error' in found) throw found.error;
      const { candidates, changes } = found;
      // An upstream's failure surfaced in the client code: reverting that code is no fix for it.
      const revert = upstreamFailureOf(incident.firstEvent) ? { note: 'No revert proposed: the error is an upstream failure, not a change to this code.' } : await prepareRevert(incident, suspects, deps);
      return {
        patch: { candidates, recentChanges: changes, suspectCommits: suspects, revert: revert.revert, revertNote: revert.note },
        details: { candidates: candidates.length, commits: changes.length, suspects: suspects.length, revert: revert.revert?.sha.slice(0, 12) ?? null },
      };
    } catch (error) {
      deps.logger.warn({ incidentId: incident.id, err: error }, 'recent changes unavailable');
      return { patch: { candidates: [], recentChanges: [] }, details: { error: error instanceof Error ? error.message : String(error) } };
    }
  },
};

async function searchAndLog(incident: Incident, deps: PipelineDeps) {
  const candidates = (await deps.searchCode({ incident })).map((c) => c.file);
  const changes = await deps.findRecentChanges({ event: incident.firstEvent, candidates, sinceDays: deps.settings.recentChangesDays });
  return { candidates, changes };
}

async function findSuspects(incident: Incident, deps: PipelineDeps) {
  if (!deps.findSuspectCommits) return [];
  try {
    return await deps.findSuspectCommits({ event: incident.firstEvent });
  } catch (error) {
    deps.logger.warn({ incidentId: incident.id, err: error }, 'suspect commits unavailable');
    return [];
  }
}

async function prepareRevert(incident: Incident, suspects: SuspectCommit[], deps: PipelineDeps): Promise<{ revert?: Incident['revert']; note?: string }> {
  if (suspects.length === 0 || !deps.findRevert || deps.settings.revertProposals === false) return {};
  const outcome = await deps.findRevert({ suspects, maxAgeDays: deps.settings.revertMaxAgeDays ?? DEFAULT_REVERT_MAX_AGE_DAYS, event: incident.firstEvent }).catch((error: unknown) => ({ note: `No revert proposed: ${error instanceof Error ? error.message : String(error)}` }));
  return 'revert' in outcome ? { revert: outcome.revert } : { note: outcome.note };
}
