import type { CliCommand } from '../command.js';
import type { BootMedic } from '../boot-medic.js';
import { terminalIo } from '../terminal-output.js';

/** `incidents [--open]`: one line per incident, newest first. */
export function createIncidentsCommand(boot: BootMedic): CliCommand {
  return {
    name: 'incidents',
    usage: 'incidents [--open]',
    summary: 'list incidents (state, events, service, title)',
    async run(args, rawIo) {
      const io = terminalIo(rawIo);
      return boot(io, async ({ medic }) => {
        const views = await medic.commands.list({ openOnly: args.includes('--open'), limit: 200 });
        if (views.length === 0) io.stdout.write('No incidents yet.\n');
        for (const { incident, stats } of views) {
          io.stdout.write(`${incident.id}  ${incident.state.padEnd(17)} ${String(stats?.count ?? 0).padStart(6)}×  ${incident.service}  ${incident.title.slice(0, 100)}\n`);
        }
        return 0;
      });
    },
  };
}
