import type { AuditEvent } from '../domain/audit.js';
import type { IncidentView } from '../use-cases/incident-commands.js';
import type { StateReader } from './boot-reader.js';

/**
 * One incident and its audit trail, as the reading commands (`show`, `postmortem`) take them;
 * undefined, with the way to list them said on stderr, when there is no such incident.
 */
export async function readIncident(io: { stderr: { write(text: string): unknown } }, reader: StateReader, id: string): Promise<{ view: IncidentView; trail: AuditEvent[] } | undefined> {
  const view = await reader.commands.status(id);
  if (!view) {
    io.stderr.write(`No incident ${id}. List them with \`npm run medic -- incidents\`.\n`);
    return undefined;
  }
  return { view, trail: await reader.audit.list({ incidentId: id }) };
}
