import type { RecentChange } from '../domain/analysis.js';

/** The commit that last changed one line, as `git blame` (following renames) tells it. */
export interface BlameHit {
  sha: string;
  author: string;
  /** Author date, ISO 8601. */
  date: string;
  subject: string;
  /** The file's path in that commit. */
  path: string;
}

/** A commit as the branch's log lists it: a recent change with every file it changed, and when it was committed. */
export interface LoggedCommit extends RecentChange {
  /** Committer date, ISO 8601: what `git log --since/--until` filters on. */
  committedAt: string;
}

/** One file's content just before and just after a commit (undefined: the file did not exist). */
export interface CommitFileChange {
  sha: string;
  path: string;
  pathBefore: string;
  before?: string;
  after?: string;
  /** Every path the commit changed (this one included). */
  files?: string[];
  /** The commit's whole message. */
  message?: string;
}
import type { FixProposal } from '../domain/fix.js';
import type { Checkable } from './service-check.js';

/** Read-only view of the service's repository (Medic's own clone, never the operator's). */
export interface CodeRepository extends Checkable {
  /** The longest one local read (git log, blame, show) may take by the adapter's configuration; the gateway's deadline for its reads. */
  readonly timeoutMs?: number;
  /** Brings the clone up to date with the remote's default branch. */
  sync(): Promise<void>;
  listFiles(): Promise<string[]>;
  readFile(path: string): Promise<string | undefined>;
  /**
   * What the files are read at (a commit, with the repository and directory when routed), for
   * callers that keep work derived from them; absent or undefined when it cannot be told.
   */
  revision?(): Promise<string | undefined>;
  /** Commits touching `paths` in the `sinceDays` before `until` (ISO 8601; default now). */
  recentChanges(paths: string[], sinceDays: number, limit: number, until?: string): Promise<RecentChange[]>;
  /**
   * Every commit of the branch committed at or after `since` (ISO 8601), newest first as `git log`
   * lists them, at most `maxCount`, each with every file it changed: the one read that many
   * `recentChanges` questions of one revision can be answered from.
   */
  commitLog?(since: string, maxCount: number): Promise<LoggedCommit[]>;
  /** The commit that last changed `line` of `path` (1-based), or undefined when history does not say. */
  blame(path: string, line: number): Promise<BlameHit | undefined>;
  /** The commit that last changed the function `fn` of `path`, when git can find the function. */
  blameFunction(path: string, fn: string): Promise<BlameHit | undefined>;
  /** `path` (as named in that commit) just before and after commit `sha`. */
  commitFileChange(sha: string, path: string): Promise<CommitFileChange | undefined>;
}

export interface PublishInput {
  incidentId: string;
  branch: string;
  proposal: FixProposal;
  message: string;
  /** The caller's hold on the write: aborted when lost; `admit` is asked just before the push and may refuse it. */
  guard?: PublishGuard;
}

export interface PublishGuard {
  signal?: AbortSignal;
  /** Throws when this writer may no longer push (a later holder of the fix's lease has written). */
  admit?: () => Promise<void>;
}

export interface PublishResult {
  branch: string;
  commit: string;
  pushStatus: 'pushed' | 'failed';
  pushError?: string;
}

/** Writes an approved fix: isolated worktree, one branch, one commit, one push. Idempotent by branch. */
export interface FixPublisher extends Checkable {
  publish(input: PublishInput): Promise<PublishResult>;
}

export interface PullRequestInput {
  branch: string;
  title: string;
  body: string;
  /** The one file the fix changes: its CODEOWNERS owners are asked to review. */
  file?: string;
}

/** Who a review is requested from: GitHub user logins and team slugs. */
export interface ReviewRequest {
  users: string[];
  teams: string[];
}

export type ChecksState = 'pending' | 'success' | 'failure';

/** Whether the fix reached the default branch: the PR merged, or (a plain git remote) the branch is in it. */
export interface MergeState {
  merged: boolean;
  /** ISO 8601; when the code host cannot tell, when Medic first saw it merged. */
  mergedAt?: string;
  /** The default branch's commit that brought the fix in (the merge commit, or the branch's head on a fast-forward). */
  commit?: string;
}

/** A deploy of the fix: a deployment whose status is success, or a release, after the merge. */
export interface DeployMarker {
  at: string;
  /** What it was, as the thread names it: `deployment production #12`, `release v1.4.2`. */
  marker: string;
}

export interface FixRef {
  branch: string;
  pullNumber?: number;
}

export interface PullRequests extends Checkable {
  /** Opens (or reuses) a draft PR for the branch; undefined when no code host is configured. */
  open(input: PullRequestInput): Promise<{ number: number; url: string; reviewers?: string[] } | undefined>;
  /** Requests reviews on an open PR, where the code host has reviews. */
  requestReviewers?(pullNumber: number, request: ReviewRequest): Promise<void>;
  /** The combined state of the check runs on the branch's head, where the code host has checks. */
  checks?(branch: string): Promise<ChecksState>;
  /** Whether the fix was merged into the default branch, where the code host can tell. */
  mergeState?(fix: FixRef): Promise<MergeState>;
  /** The first deploy containing `commit` after `sinceIso`, where the code host records deploys. */
  deployment?(commit: string, sinceIso: string, kind: 'github-deployment' | 'github-release', environment?: string): Promise<DeployMarker | undefined>;
}
