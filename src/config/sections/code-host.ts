/**
 * Code host configuration: git credentials, GitHub (token or App) and code search. Merged into
 * EnvSchema in src/config/schema.ts; nothing here reads process.env.
 *
 * - Nothing set: the embedded default (a local bare remote under the data dir, no PR).
 * - MEDIC_REPO_REMOTE (https) + GIT_TOKEN or GITHUB_TOKEN: Medic's clone fetches and pushes with it.
 * - GITHUB_REPOSITORY + GITHUB_TOKEN, or GITHUB_APP_ID + GITHUB_APP_PRIVATE_KEY(_FILE) +
 *   GITHUB_APP_INSTALLATION_ID: draft PRs on GitHub (GITHUB_API_URL for GitHub Enterprise).
 */
import { z } from 'zod';
import { credentialTransportProblem } from '../../domain/git/remote-trust.js';
import { parseHostTokens } from '../../domain/git/credential-hosts.js';
import { boolFrom, intFrom, listFrom, optionalString, urlString } from '../env-helpers.js';

const optionalMatching = (re: RegExp, hint: string) => z.preprocess((v) => (v === '' ? undefined : v), z.string().regex(re, hint).optional());

export const codeHostEnv = {
  /** Token for git over HTTPS (sent as basic x-access-token:TOKEN), only to MEDIC_REPO_REMOTE's host (the GitHub host without one). */
  GIT_TOKEN: optionalString,
  /** Per-host git tokens, `host=token,host=token`: each goes only to remotes on its host. */
  MEDIC_GIT_TOKENS: optionalString,
  /** Hosts a catalog remote may name besides the GitHub host of its `github` slug (and hosts of MEDIC_GIT_TOKENS). */
  MEDIC_GIT_ALLOWED_HOSTS: listFrom([]),
  GITHUB_TOKEN: optionalString,
  /** The REST base: https://api.github.com, or https://<host>/api/v3 for GitHub Enterprise Server. */
  GITHUB_API_URL: urlString,
  GITHUB_REPOSITORY: optionalMatching(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'owner/name, e.g. acme/shop'),
  GITHUB_APP_ID: optionalMatching(/^\d+$/, 'the numeric App ID'),
  GITHUB_APP_PRIVATE_KEY: optionalString,
  GITHUB_APP_PRIVATE_KEY_FILE: optionalString,
  GITHUB_APP_INSTALLATION_ID: optionalMatching(/^\d+$/, 'the numeric installation id'),
  /** Languages code search reads (typescript,javascript,python,java,kotlin,scala,go,csharp,ruby,php); empty = all. */
  MEDIC_CODE_LANGUAGES: listFrom([]),
  /** Globs of files code search may consider; `!glob` excludes. Empty = the whole repository. */
  MEDIC_CODE_GLOBS: listFrom([]),
  /** Globs of test, spec, fixture and mock files, never fix candidates; empty = Medic's built-in list. */
  MEDIC_CODE_TEST_GLOBS: listFrom([]),
  /** Globs of normally protected files (CI, manifests, lockfiles, build scripts, .git*, policy) a fix may change. */
  MEDIC_FIX_ALLOW_PROTECTED: listFrom([]),
  /** Content cap per candidate file handed to the analyst. */
  MEDIC_CODE_MAX_BYTES: intFrom(64 * 1024, 1_024, 1024 * 1024),
  /** Propose the revert of a recent suspect commit when no other fix is proposed; it needs no model. */
  MEDIC_REVERT_PROPOSALS: boolFrom(true),
  /** A suspect commit at most this many days older than the family's first event may be reverted. */
  MEDIC_REVERT_MAX_AGE_DAYS: intFrom(14, 0, 3_650),
  /** Largest fix (changed lines) Medic will propose. */
  MEDIC_FIX_MAX_LINES: intFrom(80, 1, 5_000),
  MEDIC_GIT_AUTHOR_NAME: z.string().default('Medic'),
  MEDIC_GIT_AUTHOR_EMAIL: z.string().default('medic@localhost'),
};

/** Cross-field rules, for a superRefine on the merged schema. */
export function codeHostProblems(env: {
  GITHUB_REPOSITORY?: string;
  GITHUB_TOKEN?: string;
  GITHUB_APP_ID?: string;
  GITHUB_APP_PRIVATE_KEY?: string;
  GITHUB_APP_PRIVATE_KEY_FILE?: string;
  GITHUB_APP_INSTALLATION_ID?: string;
  MEDIC_REPO_REMOTE?: string;
  MEDIC_CATALOG_FILE?: string;
  MEDIC_CATALOG_DIR?: string;
  MEDIC_GIT_TOKENS?: string;
}): { path: string; message: string }[] {
  // With a service catalog, each repository names its own GitHub owner/name.
  const catalog = env.MEDIC_CATALOG_FILE !== undefined || env.MEDIC_CATALOG_DIR !== undefined;
  const problems: { path: string; message: string }[] = [];
  const app = env.GITHUB_APP_ID !== undefined;
  if (app && !env.GITHUB_APP_PRIVATE_KEY && !env.GITHUB_APP_PRIVATE_KEY_FILE) problems.push({ path: 'GITHUB_APP_PRIVATE_KEY', message: 'set GITHUB_APP_PRIVATE_KEY or GITHUB_APP_PRIVATE_KEY_FILE for the GitHub App' });
  if (app && !env.GITHUB_APP_INSTALLATION_ID) problems.push({ path: 'GITHUB_APP_INSTALLATION_ID', message: 'set the installation id of the GitHub App on the repository' });
  if (env.GITHUB_REPOSITORY && !app && !env.GITHUB_TOKEN) problems.push({ path: 'GITHUB_TOKEN', message: 'GITHUB_REPOSITORY needs GITHUB_TOKEN or a GitHub App to open pull requests' });
  if ((app || env.GITHUB_TOKEN) && env.GITHUB_REPOSITORY === undefined && !catalog) problems.push({ path: 'GITHUB_REPOSITORY', message: 'set GITHUB_REPOSITORY (owner/name) to open pull requests' });
  if (env.GITHUB_REPOSITORY && !env.MEDIC_REPO_REMOTE) problems.push({ path: 'MEDIC_REPO_REMOTE', message: 'set MEDIC_REPO_REMOTE to the https clone URL of GITHUB_REPOSITORY' });
  if (env.MEDIC_REPO_REMOTE && /:\/\/[^/@]+@/.test(env.MEDIC_REPO_REMOTE)) problems.push({ path: 'MEDIC_REPO_REMOTE', message: 'must not contain credentials; put the token in GIT_TOKEN' });
  const transport = env.MEDIC_REPO_REMOTE ? credentialTransportProblem(env.MEDIC_REPO_REMOTE) : undefined;
  if (transport) problems.push({ path: 'MEDIC_REPO_REMOTE', message: transport });
  for (const message of parseHostTokens(env.MEDIC_GIT_TOKENS).problems) problems.push({ path: 'MEDIC_GIT_TOKENS', message });
  return problems;
}
