/** The command-line tool's commands and dispatcher; `medic.ts` is its entry point. */
import type { CliCommand, CliIo } from './command.js';
import { bootMedic } from './boot-medic.js';
import { createDecideCommand } from './commands/decide.js';
import { createDoctorCommand } from './commands/doctor.js';
import { createIncidentsCommand } from './commands/incidents.js';
import { createReplayCommand } from './commands/replay.js';
import { createShowCommand } from './commands/show.js';
import { createAuditLog } from '../adapters/redis/audit-log.js';
import { createRetrieval } from '../app/create-retrieval.js';
import { medicPaths } from '../app/paths.js';
import { loadConfig, readEnv } from '../config/load-config.js';
import { createAuditCommand } from './commands/audit.js';
import { createDocsCommand } from './commands/docs.js';
import { locateCommand } from './commands/locate.js';
import { openState } from './open-state.js';
import { templatesCommand } from './commands/templates.js';

export function createCommands(env: NodeJS.ProcessEnv = process.env): CliCommand[] {
  return [
    createDoctorCommand(bootMedic),
    createIncidentsCommand(bootMedic),
    createShowCommand(bootMedic),
    createDecideCommand('approve', bootMedic),
    createDecideCommand('reject', bootMedic),
    createReplayCommand(bootMedic),
    templatesCommand,
    locateCommand,
    createDocsCommand(async (io) => {
      const config = loadConfig(readEnv(io.env));
      const paths = medicPaths(config);
      return { ...(await createRetrieval(config, paths)), defaultDir: paths.docs, close: async () => undefined };
    }),
    createAuditCommand(async () => {
      const state = await openState(env);
      return { audit: createAuditLog(state.redis, state.config.MEDIC_REDIS_PREFIX), close: () => state.close() };
    }),
  ];
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const commands = createCommands(io.env);
  const [name, ...args] = argv;
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.stdout.write(`Usage: npm run medic -- <command>\n\n${commands.map((c) => `  ${c.usage}\n      ${c.summary}`).join('\n')}\n`);
    return name === undefined || name === 'help' || name === '--help' ? 0 : 2;
  }
  return command.run(args, io);
}

