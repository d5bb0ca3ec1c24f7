import { assembleCatalog } from '../../domain/catalog/assemble-catalog.js';
import type { Catalog, CatalogProblem } from '../../domain/catalog/catalog.js';
import { remoteTrustProblems, type RemotePolicy } from '../../domain/git/remote-trust.js';
import { resolveService } from '../../domain/catalog/resolve-service.js';
import { ErrorCode, MedicError } from '../../domain/errors.js';
import type { CatalogStatus, ServiceCatalog } from '../../ports/service-catalog.js';
import { readCatalogSources, type CatalogSources } from './read-catalog-sources.js';

export interface FileCatalogOptions extends CatalogSources {
  /** Channel of services without one, when the files set no default_channel (MEDIC_SLACK_CHANNEL). */
  defaultChannel: string;
  /** Which hosts a remote may name (see remote-trust.ts); without it, remotes are not checked. */
  remotePolicy?: RemotePolicy;
  now?: () => Date;
}

/** Every problem, one per line, the way a bad start lists them. */
export function describeProblems(problems: readonly CatalogProblem[]): string {
  return problems.map((p) => `  - ${p.where}: ${p.message}`).join('\n');
}

/** Reads and validates the catalog's files once; undefined catalog when they hold problems. */
export async function readCatalog(options: FileCatalogOptions): Promise<{ catalog?: Catalog; problems: CatalogProblem[]; fingerprint: string }> {
  const read = await readCatalogSources(options);
  if (read.problems.length > 0) return { problems: read.problems, fingerprint: read.fingerprint };
  const assembled = assembleCatalog(read.parts, { channel: options.defaultChannel });
  const refused = assembled.catalog && options.remotePolicy ? remoteTrustProblems(assembled.catalog.repositories, options.remotePolicy, assembled.catalog.sources.join(', ')) : [];
  if (refused.length > 0) return { problems: refused, fingerprint: read.fingerprint };
  return { ...assembled, fingerprint: read.fingerprint };
}

/**
 * The catalog from files. At start every problem stops the boot (listed, with its place); later,
 * `refresh` reads the files again when their content changed and swaps the catalog in force only
 * for a valid one — a broken edit keeps the last good catalog and says why in `status()`.
 */
export async function createFileServiceCatalog(options: FileCatalogOptions): Promise<ServiceCatalog> {
  const now = options.now ?? (() => new Date());
  const first = await readCatalog(options);
  if (!first.catalog) {
    throw new MedicError(ErrorCode.ConfigInvalid, `The service catalog is invalid; fix these entries (see MEDIC_CATALOG_FILE / MEDIC_CATALOG_DIR):\n${describeProblems(first.problems)}`);
  }
  let catalog = first.catalog;
  let fingerprint = first.fingerprint;
  let status: CatalogStatus = { ok: true, sources: catalog.sources, loadedAt: now().toISOString(), problems: [] };
  return {
    current: () => catalog,
    route: (logName) => resolveService(catalog, logName),
    status: () => status,
    async refresh() {
      const next = await readCatalog(options);
      if (next.fingerprint === fingerprint) return { changed: false, status };
      fingerprint = next.fingerprint;
      if (!next.catalog) {
        status = { ...status, ok: false, problems: next.problems };
        return { changed: false, status };
      }
      catalog = next.catalog;
      status = { ok: true, sources: catalog.sources, loadedAt: now().toISOString(), problems: [] };
      return { changed: true, status };
    },
  };
}

/** A catalog that never changes (the implicit one-service catalog, or a test's). */
export function createStaticServiceCatalog(catalog: Catalog, now: () => Date = () => new Date()): ServiceCatalog {
  const status: CatalogStatus = { ok: true, sources: catalog.sources, loadedAt: now().toISOString(), problems: [] };
  return { current: () => catalog, route: (logName) => resolveService(catalog, logName), status: () => status, refresh: async () => ({ changed: false, status }) };
}
