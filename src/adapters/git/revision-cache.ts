import type { RecentChange } from '../../domain/analysis.js';
import type { BlameHit, CodeRepository, CommitFileChange } from '../../ports/code.js';

export interface RevisionCacheOptions {
  /** The revision the repository is at now; undefined means "unknown": read through, keep nothing. */
  revision: () => Promise<string | undefined>;
  /** Most bytes of file content held (default 64 MiB); past it, reads go through uncached. */
  maxBytes?: number;
  /** How long a git log answer is reused (default 5 minutes): "the last N days" moves with the clock. */
  changesTtlMs?: number;
  now?: () => number;
}

interface Held {
  revision: string;
  files?: Promise<string[]>;
  contents: Map<string, Promise<string | undefined>>;
  bytes: number;
  changes: Map<string, { at: number; value: Promise<RecentChange[]> }>;
  /** Blame and commit reads: fixed for a revision, so they never expire while it stands. */
  history: Map<string, Promise<BlameHit | CommitFileChange | undefined>>;
}

/** History answers held per revision; past this many, reads go through uncached. */
const MAX_HISTORY = 10_000;

/**
 * A CodeRepository whose reads are kept per repository revision: the file list, file contents,
 * git logs, blames and commit reads are read once per commit and shared by every incident analysed
 * against it (a storm's twenty analyses search the same clone and often suspect the same commit),
 * and dropped as soon as the clone moves to a new commit. Failed reads are not kept.
 */
export function createRevisionCachedRepository(repo: CodeRepository, options: RevisionCacheOptions): CodeRepository {
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
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
