import type { AuditEvent } from '../../domain/audit.js';
import type { AuditLog } from '../../ports/audit.js';
import type { CliCommand, CliIo } from '../command.js';
import { readArgs, tryParse, type ParsedArgs } from '../read-args.js';
import { terminalIo, terminalJson } from '../terminal-output.js';

export interface AuditCommandDeps {
  audit: AuditLog;
  close?: () => Promise<void>;
}

interface AuditQuery {
  incidentId?: string;
  tool?: string;
  decision?: 'allowed' | 'denied' | 'failed';
  limit: number;
  json: boolean;
}

const USAGE = 'audit [--incident ID] [--tool NAME] [--decision allowed|denied|failed] [--limit N] [--json]';

const OPTIONS = {
  incident: { type: 'string' },
  tool: { type: 'string' },
  decision: { type: 'string' },
  limit: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** Pure: parsed flags to a query, or a message saying what is wrong. */
function toQuery(values: ParsedArgs<typeof OPTIONS>['values']): AuditQuery | string {
  const query: AuditQuery = { limit: 100, json: values.json === true };
  if (values.incident !== undefined) query.incidentId = values.incident;
  if (values.tool !== undefined) query.tool = values.tool;
  const decision = values.decision;
  if (decision !== undefined) {
    if (decision !== 'allowed' && decision !== 'denied' && decision !== 'failed') return '--decision is one of allowed, denied, failed';
    query.decision = decision;
  }
  if (values.limit !== undefined) {
    const limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1) return '--limit is a positive integer';
    query.limit = limit;
  }
  return query;
}

/** Pure: flags to a query, or a message saying what is wrong. */
export function parseAuditArgs(args: string[]): AuditQuery | string {
  const parsed = tryParse(args, OPTIONS);
  if (typeof parsed === 'string') return parsed;
  if (parsed.positionals.length > 0) return `unexpected argument ${parsed.positionals[0] ?? ''}`;
  return toQuery(parsed.values);
}

function toolOf(event: AuditEvent): string {
  const tool = event.details?.tool;
  return typeof tool === 'string' ? tool : event.action;
}

export function filterAudit(events: AuditEvent[], query: AuditQuery): AuditEvent[] {
  const matching = events.filter((e) => (!query.tool || toolOf(e) === query.tool) && (!query.decision || e.outcome === query.decision));
  return matching.slice(-query.limit);
}

function formatRow(e: AuditEvent): string {
  const effect = typeof e.details?.effect === 'string' ? e.details.effect : '-';
  const who = `${e.actor.kind}:${e.actor.id}`;
  return [e.at, e.outcome.padEnd(7), toolOf(e).padEnd(24), effect.padEnd(11), who, e.incidentId ?? '-', e.traceId ?? '-', e.reason ?? ''].join('  ');
}

/** `npm run medic -- audit …`: who did what through the gateway, allowed, denied or failed. */
export function createAuditCommand(buildDeps: () => Promise<AuditCommandDeps>): CliCommand {
  return {
    name: 'audit',
    usage: USAGE,
    summary: 'List audit records (tool calls, decisions, who, incident, trace), oldest first',
    async run(args: string[], rawIo: CliIo): Promise<number> {
      const io = terminalIo(rawIo);
      const parsed = readArgs(args, io, this, OPTIONS);
      if (typeof parsed === 'number') return parsed;
      const query = parsed.positionals.length > 0 ? `unexpected argument ${parsed.positionals[0] ?? ''}` : toQuery(parsed.values);
      if (typeof query === 'string') {
        io.stderr.write(`${query}\nusage: medic ${USAGE}\n`);
        return 2;
      }
      const deps = await buildDeps();
      try {
        const events = filterAudit(await deps.audit.list(query.incidentId ? { incidentId: query.incidentId } : {}), query);
        for (const event of events) (query.json ? rawIo : io).stdout.write(`${query.json ? terminalJson(event) : formatRow(event)}\n`);
        if (!query.json) io.stderr.write(`${events.length} record(s)\n`);
        return 0;
      } finally {
        await deps.close?.();
      }
    },
  };
}
