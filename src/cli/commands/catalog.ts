import type { Catalog, CatalogProblem } from '../../domain/catalog/catalog.js';
import { resolveService } from '../../domain/catalog/resolve-service.js';
import type { CliCommand } from '../command.js';
import { readArgs } from '../read-args.js';
import { terminalIo, terminalJson } from '../terminal-output.js';

/** The catalog as configuration describes it: from files (maybe with problems) or the single-service variables. */
export interface LoadedCatalog {
  catalog?: Catalog;
  problems: CatalogProblem[];
  /** `files` when MEDIC_CATALOG_FILE/DIR (or the sample's catalog.yaml) are read; `variables` for the implicit one. */
  from: 'files' | 'variables';
  /** Where each repository's remote is, for repositories seeded from the sample. */
  remoteOf: (repositoryId: string) => string;
}

const USAGE = 'catalog [validate] [--json]';

const list = (items: readonly string[]) => (items.length === 0 ? '—' : items.join(', '));

/** Pure: one block per service, saying what it resolves to. */
export function presentCatalog(loaded: LoadedCatalog & { catalog: Catalog }): string {
  const { catalog } = loaded;
  const lines = [`Service catalog from ${catalog.sources.join(', ')}`, `  default channel #${catalog.defaultChannel}${catalog.unknownRoutesTo ? `; undeclared services route to ${catalog.unknownRoutesTo}` : '; undeclared services get no repository and no fix'}`, ''];
  for (const service of catalog.services) {
    const route = resolveService(catalog, service.name);
    const repo = route.known ? route.repository : undefined;
    lines.push(
      `${service.name}${service.owner ? `  (owner ${service.owner})` : ''}`,
      `  aliases      ${list(service.aliases)}`,
      `  channel      #${service.channel}`,
      `  repository   ${repo ? `${repo.id}: ${loaded.remoteOf(repo.id)} @ ${repo.branch}${service.path ? `, directory ${service.path}/` : ''}${repo.github ? `, PRs on ${repo.github}` : ''}` : 'none (no fix is ever proposed)'}`,
      `  approvers    ${list(service.approvers)}; elevated ${list(service.elevatedApprovers)}; readers ${list(service.readers)} (global approvers too)`,
      `  opens at     ${service.minSeverity} and above`,
      `  splunk       ${service.splunk.index || service.splunk.sourcetype ? `index=${service.splunk.index ?? '*'} sourcetype=${service.splunk.sourcetype ?? '*'}` : 'the configured search'}`,
      `  actions      ${service.actions ? list(service.actions) : "all of the operator's policy"}`,
      `  check        ${service.check ? `${service.check.command} (at most ${service.check.timeoutS} s, ${service.check.memoryMb} MB)` : 'none: proposals are shown as not checked'}`,
      '',
    );
  }
  return lines.join('\n');
}

/** `catalog`: every service and what it resolves to; `catalog validate`: every problem, exit 1 when any. */
export function createCatalogCommand(load: (env: NodeJS.ProcessEnv) => Promise<LoadedCatalog>): CliCommand {
  return {
    name: 'catalog',
    usage: USAGE,
    summary: 'list the services of the service catalog and what each resolves to; `validate` lists every problem (exit 1)',
    async run(args, rawIo) {
      const io = terminalIo(rawIo);
      const parsed = readArgs(args, io, this, { json: { type: 'boolean' } });
      if (typeof parsed === 'number') return parsed;
      const [sub, ...rest] = parsed.positionals;
      if (rest.length > 0 || (sub !== undefined && sub !== 'validate')) {
        io.stderr.write(`usage: medic ${USAGE}\n`);
        return 2;
      }
      const loaded = await load(rawIo.env);
      const json = parsed.values.json === true;
      if (!loaded.catalog) {
        if (json) io.stdout.write(`${terminalJson({ ok: false, problems: loaded.problems })}\n`);
        else io.stderr.write(`The service catalog has ${loaded.problems.length} problem(s):\n${loaded.problems.map((p) => `  - ${p.where}: ${p.message}`).join('\n')}\n`);
        return 1;
      }
      if (sub === 'validate') {
        const { catalog } = loaded;
        if (json) io.stdout.write(`${terminalJson({ ok: true, services: catalog.services.length, repositories: catalog.repositories.length, sources: catalog.sources })}\n`);
        else io.stdout.write(`ok: ${catalog.services.length} service(s), ${catalog.repositories.length} repositories, from ${loaded.from === 'files' ? catalog.sources.join(', ') : 'the single-service variables'}\n`);
        return 0;
      }
      io.stdout.write(json ? `${terminalJson(loaded.catalog)}\n` : presentCatalog({ ...loaded, catalog: loaded.catalog }));
      return 0;
    },
  };
}
