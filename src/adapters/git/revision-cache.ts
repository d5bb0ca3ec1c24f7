import type { RecentChange } from '../../domain/analysis.js';
import type { BlameHit, CodeRepository, CommitFileChange, LoggedCommit } from '../../ports/code.js';
import { changesFromLog } from './changes-from-log.js';

export interface RevisionCacheOptions {
  /** The revision the repository is at now; undefined means "unknown": read through, keep nothing. */
  revision: () => Promise<string | undefined>;
  /** Most bytes of file content held (default 64 MiB); past it, reads go through uncached. */
  maxBytes?: number;
  /** Most commits one read of the branch's log may bring (default 5,000); past it, windows are asked of git one by one. */
  maxLoggedCommits?: number;
  /** How long a git log answer is reused (default 5 minutes): "the last N days" moves with the clock. */
  changesTtlMs?: number;
  now?: () => number;
}

/** The branch's log held for a revision: every commit since `sinceMs`, or undefined when that was more than the index holds. */
interface HeldLog {
  sinceMs: number;
  commits: Promise<LoggedCommit[] | undefined>;
}

interface Held {
  revision: string;
  log?: HeldLog;
  files?: Promise<string[]>;
  contents: Map<string, Promise<string | undefined>>;
  bytes: number;
  changes: Map<string, { at: number; value: Promise<RecentChange[]> }>;
  /** Blame and commit reads: fixed for a revision, so they never expire while it stands. */
  history: Map<string, Promise<BlameHit | CommitFileChange | undefined>>;
}

/** History answers held per revision; past this many, reads go through uncached. */
const MAX_HISTORY = 10_000;
/** How much further back than the first question the index reaches, so later first events fit in it too. */
const LOG_SLACK_MS = 7 * 86_400_000;
const DAY_MS = 86_400_000;

/**
 * A CodeRepository whose reads are kept per repository revision: the file list, file contents,
 * git logs, blames and commit reads are read once per commit and shared by every incident analysed
 * against it (a storm's twenty analyses search the same clone and often suspect the same commit),
 * and dropped as soon as the clone moves to a new commit. Failed reads are not kept. Recent
 * changes before a first event are filtered from one read of the branch's log, whatever the
 * incident's files and window, when the repository offers it (`commitLog`) and the window's
 * commits fit in it.
 */
export function createRevisionCachedRepository(repo: CodeRepository, options: RevisionCacheOptions): CodeRepository {
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const maxLogged = options.maxLoggedCommits ?? 5_000;
  const ttl = options.changesTtlMs ?? 5 * 60_000;
  const now = options.now ?? Date.now;
  let held: Held | undefined;

  async function current(): Promise<Held | undefined> {
    const revision = await options.revision();
    if (revision === undefined) return undefined;
    if (held?.revision !== revision) held = { revision, contents: new Map(), bytes: 0, changes: new Map(), history: new Map() };
    return held;
  }

  function keep<T>(promise: Promise<T>, drop: () => void): Promise<T> {
    promise.catch(drop);
    return promise;
  }

  async function history<T extends BlameHit | CommitFileChange>(key: string, read: () => Promise<T | undefined>): Promise<T | undefined> {
    const h = await current();
    if (!h) return read();
    const cached = h.history.get(key) as Promise<T | undefined> | undefined;
    if (cached) return cached;
    if (h.history.size >= MAX_HISTORY) return read();
    const value = keep(read(), () => h.history.delete(key));
    h.history.set(key, value);
    return value;
  }

  /** The revision's log from `startMs` on, read once (further back when a question reaches past it); undefined without one. */
  async function loggedSince(h: Held, startMs: number): Promise<LoggedCommit[] | undefined> {
    if (!repo.commitLog) return undefined;
    if (!h.log || h.log.sinceMs > startMs) {
      const sinceMs = startMs - LOG_SLACK_MS;
      // A log that fails or holds too much is not used at this revision: each window is asked of git.
      const commits = repo.commitLog(new Date(sinceMs).toISOString(), maxLogged + 1).then((log) => (log.length > maxLogged ? undefined : log), () => undefined);
      h.log = { sinceMs, commits };
    }
    return h.log.commits;
  }

  return {
    ...repo,
    revision: () => options.revision(),
    async listFiles() {
      const h = await current();
      if (!h) return repo.listFiles();
      h.files ??= keep(repo.listFiles(), () => (h.files = undefined));
      return h.files;
    },
    async readFile(path) {
      const h = await current();
      if (!h) return repo.readFile(path);
      const cached = h.contents.get(path);
      if (cached) return cached;
      if (h.bytes >= maxBytes) return repo.readFile(path);
      const read = keep(repo.readFile(path), () => h.contents.delete(path));
      h.contents.set(path, read);
      void read.then((text) => (h.bytes += text?.length ?? 0), () => undefined);
      return read;
    },
    async recentChanges(paths, sinceDays, limit, until) {
      // The window ends at the first event (`until`), not now: events older than the window still have their changes.
      const h = await current();
      if (!h) return repo.recentChanges(paths, sinceDays, limit, until);
      // One read of the branch's log answers every incident's window and files at this revision
      // (a window that ends now moves with the repository's clock, so it is asked of git).
      const endMs = until === undefined ? NaN : Date.parse(until);
      const logged = Number.isFinite(endMs) ? await loggedSince(h, endMs - sinceDays * DAY_MS) : undefined;
      if (logged) return changesFromLog(logged, paths, endMs - sinceDays * DAY_MS, endMs, limit);
      const key = JSON.stringify([paths, sinceDays, limit, until ?? null]);
      const cached = h.changes.get(key);
      if (cached && now() - cached.at < ttl) return cached.value;
      const value = keep(repo.recentChanges(paths, sinceDays, limit, until), () => h.changes.delete(key));
      h.changes.set(key, { at: now(), value });
      return value;
    },
    blame: (path, line) => history(JSON.stringify(['blame', path, line]), () => repo.blame(path, line)),
    blameFunction: (path, fn) => history(JSON.stringify(['function', path, fn]), () => repo.blameFunction(path, fn)),
    commitFileChange: (sha, path) => history(JSON.stringify(['commit', sha, path]), () => repo.commitFileChange(sha, path)),
    async sync() {
      await repo.sync();
      held = undefined;
    },
  };
}
