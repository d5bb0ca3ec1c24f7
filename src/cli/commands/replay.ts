import { readFile } from 'node:fs/promises';
import { ErrorEvent } from '../../domain/event.js';
import { ingestEvents } from '../../use-cases/ingest-events.js';
import type { CliCommand } from '../command.js';
import type { BootMedic } from '../boot-medic.js';
import { readArgs } from '../read-args.js';
import { terminalIo } from '../terminal-output.js';

/** `replay <file>`: injects error events (a JSON array or JSON lines of ErrorEvent) as if polled. */
export function createReplayCommand(boot: BootMedic): CliCommand {
  return {
    name: 'replay',
    usage: 'replay <events.json|events.jsonl>',
    summary: 'inject error events as if the log source had reported them',
    async run(args, rawIo) {
      const io = terminalIo(rawIo);
      const parsed = readArgs(args, io, this, {});
      if (typeof parsed === 'number') return parsed;
      const [file, ...extra] = parsed.positionals;
      if (!file || extra.length > 0) {
        io.stderr.write('Usage: npm run medic -- replay <file>\n');
        return 2;
      }
      const text = await readFile(file, 'utf8').catch(() => undefined);
      if (text === undefined) {
        io.stderr.write(`Cannot read ${file}.\n`);
        return 2;
      }
      const rows: unknown[] = text.trimStart().startsWith('[') ? (JSON.parse(text) as unknown[]) : text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as unknown);
      const events: ErrorEvent[] = [];
      rows.forEach((row, i) => {
        const parsed = ErrorEvent.safeParse(row);
        if (parsed.success) events.push(parsed.data);
        else io.stderr.write(`skipped event ${i + 1}: ${parsed.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}\n`);
      });
      return boot(io, async ({ medic }) => {
        const counts = await ingestEvents(events, medic.poll);
        io.stdout.write(`replayed ${events.length} event(s): ${counts.created} new incident(s), ${counts.absorbed} absorbed, ${counts.duplicate} duplicate(s)\n`);
        return 0;
      });
    },
  };
}
