/** The command-line tool's commands and dispatcher; `medic.ts` is its entry point. */
import type { CliCommand, CliIo } from './command.js';
import { bootMedic } from './boot-medic.js';
import { createDecideCommand } from './commands/decide.js';
import { createDoctorCommand } from './commands/doctor.js';
import { createIncidentsCommand } from './commands/incidents.js';
import { createReplayCommand } from './commands/replay.js';
import { createShowCommand } from './commands/show.js';
import { locateCommand } from './commands/locate.js';
import { templatesCommand } from './commands/templates.js';

export function createCommands(): CliCommand[] {
  return [
    createDoctorCommand(bootMedic),
    createIncidentsCommand(bootMedic),
    createShowCommand(bootMedic),
    createDecideCommand('approve', bootMedic),
    createDecideCommand('reject', bootMedic),
    createReplayCommand(bootMedic),
    templatesCommand,
    locateCommand,
  ];
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const commands = createCommands();
  const [name, ...args] = argv;
  const command = commands.find((c) => c.name === name);
  if (!command) {
    const width = Math.max(...commands.map((c) => c.usage.length));
    io.stdout.write(`Usage: npm run medic -- <command>\n\n${commands.map((c) => `  ${c.usage.padEnd(width)}  ${c.summary}`).join('\n')}\n`);
    return name === undefined || name === 'help' || name === '--help' ? 0 : 2;
  }
  return command.run(args, io);
}

