import type { CliCommand } from '../command.js';
import type { IncidentView } from '../../use-cases/incident-commands.js';
import type { BootReader } from '../boot-reader.js';
import { readArgs } from '../read-args.js';
import { terminalIo } from '../terminal-output.js';
import { STATUS_WORD_WIDTH, plainStatusWord } from '../../presenters/status-words.js';
import { presentIncidentTitle } from '../../presenters/incident-title.js';

/** One incident as `incidents` lists it: id, status (the card's word), events, service, title. */
export function presentIncidentLine({ incident, stats }: IncidentView): string {
  return `${incident.id}  ${plainStatusWord(incident).padEnd(STATUS_WORD_WIDTH)} ${String(stats?.count ?? 0).padStart(6)}×  ${incident.service}  ${presentIncidentTitle(incident)}`;
}

/** `incidents [--open]`: one line per incident, newest first. */
export function createIncidentsCommand(boot: BootReader): CliCommand {
  return {
    name: 'incidents',
    usage: 'incidents [--open]',
    summary: 'list incidents (status, events, service, title)',
    async run(args, rawIo) {
      const io = terminalIo(rawIo);
      const parsed = readArgs(args, io, this, { open: { type: 'boolean' } });
      if (typeof parsed === 'number') return parsed;
      if (parsed.positionals.length > 0) {
        io.stderr.write(`usage: medic ${this.usage}\n`);
        return 2;
      }
      return boot(io, async ({ commands }) => {
        const views = await commands.list({ openOnly: parsed.values.open === true, limit: 200 });
        if (views.length === 0) io.stdout.write('No incidents yet.\n');
        for (const view of views) io.stdout.write(`${presentIncidentLine(view)}\n`);
        return 0;
      });
    },
  };
}
