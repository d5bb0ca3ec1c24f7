/**
 * The command-line tool's commands and dispatcher; `medic.ts` is its entry point. Each command is
 * loaded on demand, and the runtime (Redis, queues, Slack, the LLM client) only by the commands
 * that boot it, so `templates` and `locate` start with the miner or the code search alone.
 */
import type { CliCommand, CliIo } from './command.js';
import type { BootMedic } from './boot-medic.js';
import type { BootReader } from './boot-reader.js';

const bootMedic: BootMedic = async (...args) => (await import('./boot-medic.js')).bootMedic(...args);
const bootReader: BootReader = async (...args) => (await import('./boot-reader.js')).bootReader(...args);

type LoadCommand = (env: NodeJS.ProcessEnv) => Promise<CliCommand>;

const COMMANDS: Record<string, LoadCommand> = {
  doctor: async () => (await import('./commands/doctor.js')).createDoctorCommand(bootMedic),
  incidents: async () => (await import('./commands/incidents.js')).createIncidentsCommand(bootReader),
  show: async () => (await import('./commands/show.js')).createShowCommand(bootReader),
  postmortem: async () => (await import('./commands/postmortem.js')).createPostmortemCommand(bootReader),
  approve: async () => (await import('./commands/decide.js')).createDecideCommand('approve', bootMedic),
  reject: async () => (await import('./commands/decide.js')).createDecideCommand('reject', bootMedic),
  replay: async () => (await import('./commands/replay.js')).createReplayCommand(bootMedic),
  templates: async () => (await import('./commands/templates.js')).templatesCommand,
  locate: async () => (await import('./commands/locate.js')).locateCommand,
  docs: async () => {
    const { createDocsCommand } = await import('./commands/docs.js');
    return createDocsCommand(async (io) => {
      const [{ loadConfig, readEnv }, { medicPaths }, { createRetrieval }] = await Promise.all([
        import('../config/load-config.js'),
        import('../app/paths.js'),
        import('../app/create-retrieval.js'),
      ]);
      const config = loadConfig(readEnv(io.env));
      const paths = medicPaths(config);
      return { ...(await createRetrieval(config, paths)), defaultDir: paths.docs, close: async () => undefined };
    });
  },
  catalog: async () => {
    const { createCatalogCommand } = await import('./commands/catalog.js');
    return createCatalogCommand(async (env) => {
      const [{ loadConfig, readEnv }, { medicPaths }, { catalogSources, fileCatalogOptions, repositoryBranch }, { readCatalog }, { implicitCatalog }, { remoteOf }] = await Promise.all([
        import('../config/load-config.js'),
        import('../app/paths.js'),
        import('../app/create-service-catalog.js'),
        import('../adapters/catalog-files/file-service-catalog.js'),
        import('../domain/catalog/implicit-catalog.js'),
        import('../app/repository-dirs.js'),
      ]);
      const config = loadConfig(readEnv(env));
      const paths = medicPaths(config);
      const sources = catalogSources(config, paths);
      const loaded = sources
        ? { ...(await readCatalog(fileCatalogOptions(config, sources))), from: 'files' as const }
        : { catalog: implicitCatalog({ channel: config.MEDIC_SLACK_CHANNEL, remote: config.MEDIC_REPO_REMOTE, branch: await repositoryBranch(config), github: config.GITHUB_REPOSITORY }), problems: [], from: 'variables' as const };
      return { ...loaded, remoteOf: (id) => { const repo = loaded.catalog?.repositories.find((r) => r.id === id); return repo ? remoteOf(paths, repo) : '?'; } };
    });
  },
  audit: async (env) => {
    const { createAuditCommand } = await import('./commands/audit.js');
    return createAuditCommand(async () => {
      const [{ openState }, { cellReaders }] = await Promise.all([import('./open-state.js'), import('../app/cells/cell-readers.js')]);
      const state = await openState(env);
      return { audit: cellReaders(state.redis, state.config).audit, close: () => state.close() };
    });
  },
};

/** Every command, for the overview `medic help` prints. */
export async function createCommands(env: NodeJS.ProcessEnv = process.env): Promise<CliCommand[]> {
  return Promise.all(Object.values(COMMANDS).map((load) => load(env)));
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  const load = name === undefined || !Object.hasOwn(COMMANDS, name) ? undefined : COMMANDS[name];
  if (!load) {
    const asked = name === undefined || name === 'help' || name === '--help' || name === '-h';
    const commands = await createCommands(io.env);
    const overview = `usage: medic <command> [--help]\n  (medic: \`npx medic\` in Medic's directory, \`node dist/cli/medic.js\` there without npm's start, or \`medic\` on the PATH after \`npm link\`)\n\n${commands.map((c) => `  ${c.usage}\n      ${c.summary}`).join('\n')}\n`;
    if (asked) {
      io.stdout.write(overview);
      return 0;
    }
    // What was wrong comes first, on its own line, where scripts read errors.
    io.stderr.write(`medic: unknown command "${name}"${name.startsWith('-') ? ' (options go after the command)' : ''}\n${overview}`);
    return 2;
  }
  return (await load(io.env)).run(args, io);
}
