import type { RecentChange } from '../domain/analysis.js';
import type { FixProposal } from '../domain/fix.js';
import type { Checkable } from './service-check.js';

/** Read-only view of the service's repository (Medic's own clone, never the operator's). */
export interface CodeRepository extends Checkable {
  /** Brings the clone up to date with the remote's default branch. */
  sync(): Promise<void>;
  listFiles(): Promise<string[]>;
  readFile(path: string): Promise<string | undefined>;
  recentChanges(paths: string[], sinceDays: number, limit: number): Promise<RecentChange[]>;
}

export interface PublishInput {
  incidentId: string;
  branch: string;
  proposal: FixProposal;
  message: string;
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
}

export type ChecksState = 'pending' | 'success' | 'failure';

export interface PullRequests extends Checkable {
  /** Opens (or reuses) a draft PR for the branch; undefined when no code host is configured. */
  open(input: PullRequestInput): Promise<{ number: number; url: string } | undefined>;
  /** The combined state of the check runs on the branch's head, where the code host has checks. */
  checks?(branch: string): Promise<ChecksState>;
}
