import type { AuditEvent } from '../../domain/audit.js';
import type { AuditLog } from '../../ports/audit.js';
import type { CliCommand, CliIo } from '../command.js';
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

/** Pure: flags to a query, or a message saying what is wrong. */
export function parseAuditArgs(args: string[]): AuditQuery | string {
  const query: AuditQuery = { limit: 100, json: false };
  for (let i = 0; i < args.length; i += 1) {
    const flag = args[i];
    const value = args[i + 1];
    if (flag === '--json') {
      query.json = true;
      continue;
    }
    if (value === undefined || value.startsWith('--')) return `${flag ?? ''} needs a value`;
    i += 1;
    if (flag === '--incident') query.incidentId = value;
    else if (flag === '--tool') query.tool = value;
    else if (flag === '--decision') {
      if (value !== 'allowed' && value !== 'denied' && value !== 'failed') return '--decision is one of allowed, denied, failed';
      query.decision = value;
    } else if (flag === '--limit') {
      const limit = Number(value);
      if (!Number.isInteger(limit) || limit < 1) return '--limit is a positive integer';
      query.limit = limit;
    } else return `unknown option ${flag ?? ''}`;
  }
  return query;
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
      const query = parseAuditArgs(args);
      if (typeof query === 'string') {
        io.stderr.write(`${query}\nusage: npm run medic -- ${USAGE}\n`);
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
