import type { CliCommand } from '../command.js';
import type { BootReader } from '../boot-reader.js';
import { readArgs } from '../read-args.js';
import { terminalIo } from '../terminal-output.js';

/** `incidents [--open]`: one line per incident, newest first. */
export function createIncidentsCommand(boot: BootReader): CliCommand {
  return {
    name: 'incidents',
    usage: 'incidents [--open]',
    summary: 'list incidents (state, events, service, title)',
    async run(args, rawIo) {
      const io = terminalIo(rawIo);
      const parsed = readArgs(args, io, this, { open: { type: 'boolean' } });
      if (typeof parsed === 'number') return parsed;
      if (parsed.positionals.length > 0) {
        io.stderr.write(`Usage: npm run medic -- ${this.usage}\n`);
        return 2;
      }
      return boot(io, async ({ commands }) => {
        const views = await commands.list({ openOnly: parsed.values.open === true, limit: 200 });
        if (views.length === 0) io.stdout.write('No incidents yet.\n');
        for (const { incident, stats } of views) {
          io.stdout.write(`${incident.id}  ${incident.state.padEnd(17)} ${String(stats?.count ?? 0).padStart(6)}×  ${incident.service}  ${incident.title.slice(0, 100)}\n`);
        }
        return 0;
      });
    },
  };
}
