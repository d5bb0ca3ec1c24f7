/**
 * The service catalog: which services exist, where each one's cards go, which repository and
 * directory hold its code, who approves its fixes. Merged into EnvSchema; nothing here reads
 * process.env.
 *
 * - Neither variable set: the single-service variables (MEDIC_SLACK_CHANNEL, MEDIC_REPO_REMOTE,
 *   MEDIC_REPO_BRANCH, GITHUB_REPOSITORY, MEDIC_APPROVERS…) are an implicit one-service catalog;
 *   with no MEDIC_REPO_REMOTE either, the sample's `catalog.yaml` (two services) is used.
 * - MEDIC_CATALOG_FILE: Medic's own catalog file (see data/catalog.yaml).
 * - MEDIC_CATALOG_DIR: a directory of Backstage `catalog-info.yaml` files (Components).
 */
import { intFrom, optionalString } from '../env-helpers.js';

export const catalogEnv = {
  /** Medic's catalog file (YAML: repositories, services, default_channel). */
  MEDIC_CATALOG_FILE: optionalString,
  /** A directory searched for Backstage `catalog-info.yaml` files (and `*.catalog-info.yaml`). */
  MEDIC_CATALOG_DIR: optionalString,
  /** How often the catalog's files are checked for changes (ms); 0 reads them at start only. */
  MEDIC_CATALOG_POLL_MS: intFrom(10_000, 0, 3_600_000),
};
