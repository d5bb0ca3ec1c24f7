/**
 * Leases, recovery and retention: how fast a dead holder's lock frees, when the sweep treats an
 * incident as stuck, and how long state is kept. Merged into EnvSchema; nothing here reads process.env.
 */
import { z } from 'zod';
import { intFrom, optionalString } from '../env-helpers.js';

export const reliabilityEnv = {
  /** Lease of the shared data lock (one clone, one index per data directory), renewed while its holder lives. */
  MEDIC_DATA_LOCK_LEASE_MS: intFrom(5_000, 500, 600_000),
  /** An incident in a working state (new, analyzing, approved, fixing) unchanged this long is resumed by the sweep. */
  MEDIC_STUCK_AFTER_S: intFrom(60, 1, 86_400),
  /** Closed (resolved) incidents are deleted this many days after they closed (0 keeps them forever). */
  MEDIC_RETENTION_DAYS: intFrom(30, 0, 36_500),
  /** Approximate cap (XADD MAXLEN ~) of the audit stream, and of each incident's own stream a tenth of it. */
  MEDIC_AUDIT_MAXLEN: intFrom(1_000_000, 1_000),
  /** Optional JSON-lines file the audit stream is archived to (appended, one record a line) before it is trimmed. */
  MEDIC_AUDIT_ARCHIVE_FILE: optionalString,
  MEDIC_AUDIT_ARCHIVE_INTERVAL_MS: intFrom(60_000, 100),
  /** A git command of Medic's clone silent this long is killed; also the gateway's deadline for git and code reads. */
  MEDIC_GIT_TIMEOUT_MS: intFrom(30_000, 1_000, 600_000),
} as const;

export const ReliabilityEnvSchema = z.object(reliabilityEnv);
