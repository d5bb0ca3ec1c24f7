import { existsSync } from 'node:fs';
import { createFileServiceCatalog, createStaticServiceCatalog, type FileCatalogOptions } from '../adapters/catalog-files/file-service-catalog.js';
import { parseHostTokens } from '../domain/git/credential-hosts.js';
import { githubWebHost, type RemotePolicy } from '../domain/git/remote-trust.js';
import type { CatalogSources } from '../adapters/catalog-files/read-catalog-sources.js';
import type { Config } from '../config/schema.js';
import { remoteDefaultBranch } from '../adapters/git/remote-head.js';
import { implicitCatalog } from '../domain/catalog/implicit-catalog.js';
import type { ServiceCatalog } from '../ports/service-catalog.js';
import type { MedicPaths } from './paths.js';

/**
 * Which files make the catalog: MEDIC_CATALOG_FILE and/or MEDIC_CATALOG_DIR when set; with
 * neither, and no MEDIC_REPO_REMOTE either (the embedded sample), the sample's `catalog.yaml`;
 * otherwise none — the single-service variables are the catalog.
 */
export function catalogSources(config: Config, paths: Pick<MedicPaths, 'sampleCatalog'>): CatalogSources | undefined {
  if (config.MEDIC_CATALOG_FILE || config.MEDIC_CATALOG_DIR) {
    return { ...(config.MEDIC_CATALOG_FILE ? { file: config.MEDIC_CATALOG_FILE } : {}), ...(config.MEDIC_CATALOG_DIR ? { dir: config.MEDIC_CATALOG_DIR } : {}) };
  }
  if (!config.MEDIC_REPO_REMOTE && !config.GITHUB_REPOSITORY && existsSync(paths.sampleCatalog)) return { file: paths.sampleCatalog };
  return undefined;
}

/** The hosts catalog remotes may name: the GitHub host (for slugs), MEDIC_GIT_ALLOWED_HOSTS, hosts with their own token. */
export function remotePolicyOf(config: Config): RemotePolicy {
  return { githubHost: githubWebHost(config.GITHUB_API_URL), allowedHosts: [...config.MEDIC_GIT_ALLOWED_HOSTS, ...parseHostTokens(config.MEDIC_GIT_TOKENS).tokens.keys()] };
}

/** What reading the catalog files needs from configuration. */
export function fileCatalogOptions(config: Config, sources: CatalogSources): FileCatalogOptions {
  return { ...sources, defaultChannel: config.MEDIC_SLACK_CHANNEL.replace(/^#/, ''), remotePolicy: remotePolicyOf(config) };
}

/** The catalog in force at start: a bad file stops the boot, listing every problem. */
export async function createServiceCatalog(config: Config, paths: Pick<MedicPaths, 'sampleCatalog'>): Promise<ServiceCatalog> {
  const sources = catalogSources(config, paths);
  if (sources) return createFileServiceCatalog(fileCatalogOptions(config, sources));
  return createStaticServiceCatalog(implicitCatalog({ channel: config.MEDIC_SLACK_CHANNEL, remote: config.MEDIC_REPO_REMOTE, branch: await repositoryBranch(config), github: config.GITHUB_REPOSITORY }));
}

/** MEDIC_REPO_BRANCH, else the branch MEDIC_REPO_REMOTE's HEAD names, else `main`. */
export async function repositoryBranch(config: Pick<Config, 'MEDIC_REPO_BRANCH' | 'MEDIC_REPO_REMOTE'>): Promise<string> {
  if (config.MEDIC_REPO_BRANCH) return config.MEDIC_REPO_BRANCH;
  return (config.MEDIC_REPO_REMOTE ? await remoteDefaultBranch(config.MEDIC_REPO_REMOTE) : undefined) ?? 'main';
}
