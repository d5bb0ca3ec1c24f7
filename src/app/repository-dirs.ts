import type { CatalogRepository } from '../domain/catalog/catalog.js';
import type { MedicPaths } from './paths.js';

/** Where one catalog repository's clone and worktrees live: the implicit repository keeps the historic `repo/`. */
export function repositoryDirs(paths: MedicPaths, repositoryId: string): { clone: string; worktrees: string } {
  return repositoryId === 'default'
    ? { clone: paths.repoClone, worktrees: paths.worktrees }
    : { clone: `${paths.data}/repos/${repositoryId}`, worktrees: `${paths.worktrees}/${repositoryId}` };
}

/** The remote of a catalog repository: its own, or the local bare remote seeded from the sample. */
export function remoteOf(paths: MedicPaths, repository: CatalogRepository): string {
  // `sample-service` seeds `remotes/sample-service.git`, the sample remote Medic always had.
  return repository.remote ?? `${paths.data}/remotes/${repository.seedFrom ?? repository.id}.git`;
}
