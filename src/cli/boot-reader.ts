import { cellReaders } from '../app/cells/cell-readers.js';
import { describeError } from '../app/describe-error.js';
import type { AuditLog } from '../ports/audit.js';
import { createIncidentReads, type IncidentReads } from '../use-cases/create-incident-commands.js';
import type { CliIo } from './command.js';
import { openState } from './open-state.js';

export interface StateReader {
  commands: IncidentReads;
  audit: AuditLog;
}

/**
 * Runs `fn` against the incident records and the audit trail alone — config and one Redis
 * connection, no queues, adapters or model clients — for the commands that only read, so they
 * answer as fast as Redis does. Always closes the connection.
 */
export type BootReader = (io: CliIo, fn: (reader: StateReader) => Promise<number>) => Promise<number>;

export const bootReader: BootReader = async (io, fn) => {
  let state: Awaited<ReturnType<typeof openState>> | undefined;
  try {
    state = await openState(io.env);
    const { store, audit } = cellReaders(state.redis, state.config);
    return await fn({ commands: createIncidentReads(store), audit });
  } catch (error) {
    io.stderr.write(`${describeError(error)}\n`);
    return 1;
  } finally {
    await state?.close();
  }
};
