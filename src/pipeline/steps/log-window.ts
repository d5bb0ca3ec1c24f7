import type { ErrorEvent, LogEntry, RawLogLine } from '../../domain/event.js';
import { evidenceText } from '../../domain/log-clues.js';
import { selectsAsLiteral } from '../../gateway/arguments/identifiers.js';
import type { Step } from '../step.js';

/**
 * The event as the window search may use it: a correlation or session id that would select (a `*`
 * planted in a log line) is left out, so one hostile value narrows the search instead of widening
 * it — and the gateway, which would refuse the whole call, still gets a search it can run.
 */
function searchableEvent(event: ErrorEvent): { event: ErrorEvent; dropped: string[] } {
  const dropped = Object.keys(event.correlationIds).filter((field) => selectsAsLiteral(event.correlationIds[field] ?? ''));
  const correlationIds = Object.fromEntries(Object.entries(event.correlationIds).filter(([field]) => !dropped.includes(field)));
  const session = event.sessionId !== undefined && selectsAsLiteral(event.sessionId);
  const { sessionId, ...rest } = event;
  return { event: { ...rest, correlationIds, ...(sessionId !== undefined && !session ? { sessionId } : {}) }, dropped: session ? [...dropped, 'sessionId'] : dropped };
}

/**
 * The correlated window around the first event, merged with the events already recorded for the
 * incident. A failed or empty window becomes one explicit entry and the analysis goes on.
 */
export const logWindowStep: Step = {
  name: 'log-window',
  async run(incident, deps) {
    const event = incident.firstEvent;
    const at = Date.parse(event.time);
    const { windowBeforeMs, windowAfterMs, windowLimit } = deps.settings;
    let lines: RawLogLine[] = [];
    const searchable = searchableEvent(event);
    let note: string | undefined = searchable.dropped.length > 0 ? `left out of the window search, as they would select rather than name: ${searchable.dropped.slice(0, 10).join(', ').slice(0, 300)}` : undefined;
    try {
      lines = await deps.logs.window({ event: searchable.event, beforeMs: windowBeforeMs, afterMs: windowAfterMs, limit: windowLimit });
    } catch (error) {
      note = `no log window available: ${error instanceof Error ? error.message : String(error)}`;
      deps.logger.warn({ incidentId: incident.id, err: error }, 'log window failed');
    }
    const recorded = await deps.store.recentEvents(incident.id);
    const seen = new Set<string>();
    const merged: RawLogLine[] = [];
    for (const line of [
      ...lines,
      ...recorded.map((e) => ({ sourceId: e.id.replace(/^file:/, ''), time: e.time, level: e.severity.toUpperCase(), service: e.service, message: evidenceText(e), correlationIds: e.correlationIds })),
    ]) {
      const key = line.sourceId || `${line.time}|${line.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      merged.push(line);
    }
    merged.sort((a, b) => a.time.localeCompare(b.time));
    const entries: LogEntry[] = merged.slice(0, windowLimit).map((line, i) => ({
      id: `log-${i}`, time: line.time, level: line.level, service: line.service, message: line.message, sourceId: line.sourceId,
    }));
    if (entries.length === 0) {
      note ??= 'no log window available: no correlated lines found';
      entries.push({ id: 'log-0', time: event.time, level: 'INFO', service: 'medic', message: note });
    }
    const bundle = { entries, from: new Date(at - windowBeforeMs).toISOString(), to: new Date(at + windowAfterMs).toISOString(), note };
    return { patch: { logs: bundle }, details: { lines: entries.length, note } };
  },
};
