import { readFileSync } from 'node:fs';
import type { ErrorEvent, RawLogLine } from '../../domain/event.js';
import { asMedicError, ErrorCode, MedicError } from '../../domain/errors.js';
import type { LogSource, PollResult, WindowQuery } from '../../ports/log-source.js';
import { normalizeRow, toLogLine, UNIDENTIFIED, type NormalizeOptions } from './normalize-row.js';
import { parseIndexTime } from './parse-splunk-time.js';
import { decodeCheckpoint, encodeCheckpoint, seenWithin } from './poll-checkpoint.js';
import { createSplunkClient, type SplunkClient } from './splunk-client.js';
import type { SplunkLogSourceOptions } from './splunk-options.js';
import { assertFieldName, splitBaseSearch } from './spl.js';
import { buildLineSearch, buildPollSearch, buildWindowSearch } from './search-builders.js';
import { assertLogLinePattern, lineMatches } from '../../domain/log-line-pattern.js';
import { firstLineOf, sinceMsOf } from '../../domain/log-line-hit.js';

export type SplunkLogSource = LogSource & { close(): void };

/** Reads the PEM named by SPLUNK_CA_FILE, failing at start with what to fix. */
export function readCaFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new MedicError(ErrorCode.ConfigInvalid, `SPLUNK_CA_FILE ${path} cannot be read (${(error as { code?: string }).code ?? 'error'}); point it at a PEM file.`);
  }
}

export function createSplunkLogSource(options: SplunkLogSourceOptions, client: SplunkClient = createSplunkClient(options.client)): SplunkLogSource {
  const normalize: NormalizeOptions = {
    correlationFields: options.correlationFields.map((f) => assertFieldName(f, 'MEDIC_CORRELATION_FIELDS')),
    sessionFields: (options.sessionFields ?? ['sessionId', 'session_id']).map((f) => assertFieldName(f, 'SPLUNK_SESSION_FIELDS')),
    serviceFields: (options.serviceFields ?? ['service', 'app', 'sourcetype', 'host', 'source']).map((f) => assertFieldName(f, 'SPLUNK_SERVICE_FIELDS')),
    idField: options.idField === undefined ? undefined : assertFieldName(options.idField, 'SPLUNK_ID_FIELD'),
  };
  const pollBase = splitBaseSearch(options.search, 'SPLUNK_SEARCH');
  const windowBase = splitBaseSearch(options.windowSearch, 'SPLUNK_WINDOW_SEARCH');
  const overlapS = options.overlapS ?? 300;
  const lookbackS = options.initialLookbackS ?? 900;
  const maxAgeS = options.maxEventAgeS ?? 86_400;
  const maxEvents = options.maxEventsPerPoll ?? 10_000;

  async function pollStream(checkpointText: string | undefined, onEvents: (events: ErrorEvent[]) => Promise<void>, signal?: AbortSignal): Promise<{ checkpoint: string; events: number }> {
    const checkpoint = decodeCheckpoint(checkpointText);
    // Rows already handed over come back in the overlap; the cap counts only new ones.
    const bounds = { overlapS, lookbackS, maxAgeS, maxEvents: maxEvents + checkpoint.seen.length };
    const before = new Set(checkpoint.seen);
    // Across the client's retries too, so a retried stream never hands an event over twice.
    const handed = new Set<string>();
    const tracked: { id: string; indexTime: number | undefined }[] = [];
    let indexTime = checkpoint.indexTime;
    let count = 0;
    await client.searchStream({ ...buildPollSearch(pollBase, checkpoint, bounds), signal }, async (rows) => {
      const events: ErrorEvent[] = [];
      for (const row of rows) {
        const result = normalizeRow(row, normalize);
        const rowIndexTime = parseIndexTime(row._indextime);
        if (rowIndexTime !== undefined) indexTime = Math.max(indexTime ?? 0, rowIndexTime);
        if (handed.has(result.id)) continue;
        if (result.ok || result.id !== UNIDENTIFIED) {
          handed.add(result.id);
          tracked.push({ id: result.id, indexTime: rowIndexTime });
        }
        if (before.has(result.id)) continue;
        if (result.ok) events.push(result.value);
        else options.onInvalid?.(result.id, result.reason);
      }
      if (events.length === 0) return;
      count += events.length;
      await onEvents(events);
    });
    const { seen, floor } = seenWithin(tracked, indexTime, overlapS);
    return { events: count, checkpoint: encodeCheckpoint({ v: 1, ...(indexTime === undefined ? {} : { indexTime }), seen, ...(floor === undefined ? {} : { floor }) }) };
  }

  return {
    name: 'splunk',
    // One silent attempt takes a connect plus a read timeout: the gateway's deadline must not be shorter.
    timeoutMs: (options.client.connectTimeoutMs ?? 5_000) + (options.client.readTimeoutMs ?? 60_000),
    pollStream: (checkpointText, onEvents) => pollStream(checkpointText, onEvents),
    async poll(checkpointText, readOptions): Promise<PollResult> {
      const events: ErrorEvent[] = [];
      const { checkpoint } = await pollStream(checkpointText, async (batch) => {
        for (const event of batch) events.push(event);
      }, readOptions?.signal);
      return { events, checkpoint };
    },

    async window(query: WindowQuery, readOptions): Promise<RawLogLine[]> {
      const rows = await client.search({ ...buildWindowSearch(windowBase, query, normalize), signal: readOptions?.signal }).catch((error: unknown) => {
        throw asMedicError(error);
      });
      return rows
        .flatMap((row) => toLogLine(row, normalize) ?? [])
        .sort((a, b) => a.time.localeCompare(b.time))
        .slice(0, query.limit);
    },

    async findLine(service, pattern, sinceIso, readOptions) {
      const text = assertLogLinePattern(pattern);
      const since = sinceMsOf(sinceIso);
      const rows = await client.search({ ...buildLineSearch(windowBase, service, text, since, normalize), signal: readOptions?.signal }).catch((error: unknown) => {
        throw asMedicError(error);
      });
      // Splunk matches the quoted term by its tokens; the line must hold the text itself.
      const hit = rows
        .flatMap((row) => toLogLine(row, normalize) ?? [])
        .filter((l) => Date.parse(l.time) >= since && lineMatches(l.message, text))
        .sort((a, b) => Date.parse(a.time) - Date.parse(b.time))[0];
      return hit && { at: new Date(hit.time).toISOString(), line: firstLineOf(hit.message) };
    },

    async check() {
      const adapter = `splunk ${client.where} (${options.client.auth.kind} auth)`;
      try {
        const info = await client.serverInfo();
        return { name: 'log source', adapter, ok: true, detail: `Splunk ${info.version}${info.serverName ? ` on ${info.serverName}` : ''}; authenticated` };
      } catch (error) {
        return { name: 'log source', adapter, ok: false, detail: asMedicError(error).message };
      }
    },

    close() {
      client.close();
    },
  };
}
