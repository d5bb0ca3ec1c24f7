import { resolve } from 'node:path';
import type { Config } from '../config/schema.js';

/** Where the embedded defaults keep their files, all derived from MEDIC_DATA_DIR and MEDIC_SAMPLE_DIR. */
export function medicPaths(config: Config) {
  const data = resolve(config.MEDIC_DATA_DIR);
  const sample = resolve(config.MEDIC_SAMPLE_DIR);
  // The sample's documents describe the sample's code: beside another repository they would be
  // retrieved as "similar" to errors they know nothing of. There, only MEDIC_DOCS_DIR is read.
  const ownCode = Boolean(config.MEDIC_REPO_REMOTE || config.GITHUB_REPOSITORY || config.MEDIC_CATALOG_FILE || config.MEDIC_CATALOG_DIR);
  return {
    data,
    logs: resolve(config.MEDIC_LOG_DIR ?? `${sample}/logs`),
    docs: config.MEDIC_DOCS_DIR ? resolve(config.MEDIC_DOCS_DIR) : ownCode ? undefined : `${sample}/docs`,
    sampleService: `${sample}/sample-service`,
    sampleHistory: `${sample}/sample-service.history.json`,
    sampleRemote: `${data}/remotes/sample-service.git`,
    /** The sample's service catalog: two services, two repositories, two channels. */
    sampleCatalog: `${sample}/catalog.yaml`,
    sample,
    repoClone: `${data}/repo`,
    worktrees: `${data}/worktrees`,
    vectors: `${data}/vectors/docs.mdv`,
  };
}
export type MedicPaths = ReturnType<typeof medicPaths>;
