import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { acquireLease } from '../../adapters/redis/leased-lock.js';
import type { IngestStatus } from '../../ports/incident-store.js';
import { createTemplateMiner } from '../../domain/templates/template-miner.js';
import { ingestEvents } from '../../use-cases/ingest-events.js';
import type { BootMedic } from '../boot-medic.js';
import type { CliCommand, CliIo } from '../command.js';
import { readArgs } from '../read-args.js';
import { terminalIo } from '../terminal-output.js';
import { readReplayRecords, type ReplayRecord } from './replay-records.js';

const USAGE = 'replay FILE [--print-incidents]';
const LOCK_WAIT_MS = 60_000;

/**
 * `replay FILE [--print-incidents]`: ingests the records of FILE exactly as a poll would — the
 * same miner (restored from and saved to Redis), the same fingerprints, caps and merges. With
 * `--print-incidents`, one `{"incident","status"}` JSON line per input record, in order, naming
 * the incident after every merge the replay caused (a kept contract: see the README). The summary
 * goes to stderr; the exit code is 1 when a record was skipped.
 */
export function createReplayCommand(boot: BootMedic): CliCommand {
  return {
    name: 'replay',
    usage: USAGE,
    summary: 'ingest the records of FILE as a poll would; --print-incidents prints one {"incident","status"} line per record',
    async run(args, rawIo) {
      const io = terminalIo(rawIo);
      const parsed = readArgs(args, io, this, { 'print-incidents': { type: 'boolean' } });
      if (typeof parsed === 'number') return parsed;
      const print = parsed.values['print-incidents'] === true;
      const [file, ...extra] = parsed.positionals;
      if (!file || extra.length > 0) {
        io.stderr.write(`usage: medic ${USAGE}\n`);
        return 2;
      }
      const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        io.stderr.write(`replay: cannot read ${file} (${error.code ?? error.message}).\n`);
        return undefined;
      });
      if (text === undefined) return 2;
      return boot(io, async ({ medic, config }) => {
        const records = readReplayRecords(text, basename(file), config.MEDIC_CORRELATION_FIELDS);
        for (const r of records) if (r.problem) io.stderr.write(`skipped record ${r.line}: ${r.problem}\n`);
        const outcomes = await replay(records, medic.poll);
        if (print) await printIncidents(records, outcomes, medic.poll.store, io);
        const counts = countOf(outcomes);
        const skipped = records.filter((r) => r.problem).length;
        io.stderr.write(
          `replayed ${outcomes.length} record(s): ${counts.created} new incident(s), ${counts.absorbed} absorbed, ${counts.held} held, ` +
            `${counts.overflow} overflowed, ${counts.duplicate} duplicate(s); ${new Set(outcomes.map((o) => o.family)).size} famil(ies); ${skipped} skipped\n`,
        );
        return skipped > 0 ? 1 : 0;
      });
    },
  };
}

interface Outcome {
  status: IngestStatus;
  incidentId: string;
  fingerprint: string;
  family: string;
}

type PollDeps = Parameters<Parameters<BootMedic>[1]>[0]['medic']['poll'];

/** Under the poll lock, so the replay is the only miner at work, as a poll is. */
async function replay(records: ReplayRecord[], poll: PollDeps): Promise<Outcome[]> {
  const lease = await acquireLease(poll.redis, `${poll.prefix}lock:poll:${poll.source.name}`, { waitMs: LOCK_WAIT_MS });
  if (!lease) throw new Error('A poll has held the poll lock for a minute; try again when it is done.');
  try {
    const miner = createTemplateMiner({}, await poll.templates?.load());
    const outcomes: Outcome[] = [];
    const events = records.flatMap((r) => (r.event ? [r.event] : []));
    await ingestEvents(events, {
      ...poll, miner,
      onIngested: (status, incidentId, event, fingerprint) => {
        poll.onIngested?.(status, incidentId, event, fingerprint);
        outcomes.push({ status, incidentId, fingerprint, family: fingerprint.slice(fingerprint.indexOf(':') + 1) });
      },
    });
    await poll.templates?.save(miner.snapshot());
    return outcomes;
  } finally {
    await lease.release().catch(() => undefined);
  }
}

async function printIncidents(records: ReplayRecord[], outcomes: Outcome[], store: PollDeps['store'], io: CliIo): Promise<void> {
  let chunk = '';
  let next = 0;
  for (const record of records) {
    // Outcomes come in the order of the records that are events.
    const outcome = record.event ? outcomes[next++] : undefined;
    if (!outcome) {
      chunk += `${JSON.stringify({ incident: '', status: 'skipped' })}\n`;
      continue;
    }
    // A held record joined its family's incident if the family opened later in the replay.
    const joined = outcome.incidentId || (outcome.status === 'held' ? await store.openIncidentOf(outcome.fingerprint) : undefined);
    chunk += `${JSON.stringify({ incident: joined ? await store.resolve(joined) : '', status: outcome.status })}\n`;
    if (chunk.length > 64_000) {
      io.stdout.write(chunk);
      chunk = '';
    }
  }
  io.stdout.write(chunk);
}

function countOf(outcomes: Outcome[]): Record<IngestStatus, number> {
  const counts: Record<IngestStatus, number> = { created: 0, absorbed: 0, held: 0, overflow: 0, duplicate: 0 };
  for (const o of outcomes) counts[o.status] += 1;
  return counts;
}
