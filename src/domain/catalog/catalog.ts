import type { Severity } from '../event.js';
import type { VerifySettings } from '../verification.js';

/** One repository Medic clones: a remote, its default branch, and where PRs open on GitHub. */
export interface CatalogRepository {
  /** A slug, unique in the catalog: the clone's directory name and what services point at. */
  id: string;
  /**
   * The git remote (https URL, or a local path to a bare repository). Absent only when `seedFrom`
   * is set: Medic then seeds a local bare remote from that sample directory.
   */
  remote?: string;
  branch: string;
  /** `owner/name` on GitHub, for draft PRs and code-owner review requests. */
  github?: string;
  /** A directory of MEDIC_SAMPLE_DIR Medic turns into this repository's local remote (the sample). */
  seedFrom?: string;
}

/** One service: what it is called in the logs, where its code lives, who is on call for it. */
export interface CatalogService {
  name: string;
  /** The names that appear in log fields (`service`, `app`…); the name itself always matches. */
  aliases: string[];
  /** Who owns it (Backstage `spec.owner`), shown on the card and by `medic catalog`. */
  owner?: string;
  /** The repository id; absent: the service has no code Medic may touch (no fix). */
  repository?: string;
  /** The service's directory inside a monorepo ('' = the whole repository). */
  path: string;
  /** The Slack channel its cards go to (a name without `#`, or a channel id). */
  channel: string;
  /** Slack user ids or `group:<usergroup id>`; they approve this service's fixes and MUTATING actions. */
  approvers: string[];
  /** They confirm this service's DESTRUCTIVE actions (step-up) and approve too. */
  elevatedApprovers: string[];
  /** They read this service's incidents anywhere. */
  readers: string[];
  /** Events below this severity never open an incident for the service. */
  minSeverity: Severity;
  /** The Splunk search scope the service's events and log windows come from. */
  splunk: { index?: string; sourcetype?: string };
  /** Policy actions (data/policy/actions.yaml names) allowed on this service; undefined = all of them. */
  actions?: string[];
  /** How a merged fix is verified: the quiet window (minutes) and what counts as the deploy (default: the merge). */
  verify?: { quietMinutes?: number; deploy?: VerifySettings['deploy'] };
  /** The command a proposal must pass before anyone may approve it; absent: proposals are "not checked". */
  check?: CheckSettings;
}

/** `check:` of a service: a shell command run in the fix's worktree, offline, bounded in time and memory. */
export interface CheckSettings {
  command: string;
  timeoutS: number;
  memoryMb: number;
}

/** The whole catalog, validated: every reference resolves, every alias names one service. */
export interface Catalog {
  services: CatalogService[];
  repositories: CatalogRepository[];
  /** Where cards of services nobody declared go. */
  defaultChannel: string;
  /** A declared service that undeclared services are routed to (the implicit one-service catalog). */
  unknownRoutesTo?: string;
  /** Where it came from (files, or the single-service variables), for logs and `medic catalog`. */
  sources: string[];
}

/** One problem found while reading or validating a catalog, with its place. */
export interface CatalogProblem {
  where: string;
  message: string;
}

/** How an incident's service resolves: the declared service (and its repository), or unknown. */
export type ServiceRoute =
  | { known: true; service: CatalogService; repository?: CatalogRepository; channel: string }
  | { known: false; name: string; channel: string };
