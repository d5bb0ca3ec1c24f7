import type { RecentChange } from '../../domain/analysis.js';
import type { CodeRepository } from '../../ports/code.js';

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
}

/**
 * A CodeRepository whose reads are kept per repository revision: the file list, file contents and
 * git logs are read once per commit and shared by every incident analysed against it (a storm's
 * twenty analyses search the same clone), and dropped as soon as the clone moves to a new commit.
 * Failed reads are not kept.
 */
export function createRevisionCachedRepository(repo: CodeRepository, options: RevisionCacheOptions): CodeRepository {
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const ttl = options.changesTtlMs ?? 5 * 60_000;
  const now = options.now ?? Date.now;
  let held: Held | undefined;

  async function current(): Promise<Held | undefined> {
    const revision = await options.revision();
    if (revision === undefined) return undefined;
    if (held?.revision !== revision) held = { revision, contents: new Map(), bytes: 0, changes: new Map() };
    return held;
  }

  function keep<T>(promise: Promise<T>, drop: () => void): Promise<T> {
    promise.catch(drop);
    return promise;
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
    async recentChanges(paths, sinceDays, limit) {
      const h = await current();
      if (!h) return repo.recentChanges(paths, sinceDays, limit);
      const key = JSON.stringify([paths, sinceDays, limit]);
      const cached = h.changes.get(key);
      if (cached && now() - cached.at < ttl) return cached.value;
      const value = keep(repo.recentChanges(paths, sinceDays, limit), () => h.changes.delete(key));
      h.changes.set(key, { at: now(), value });
      return value;
    },
    async sync() {
      await repo.sync();
      held = undefined;
    },
  };
}
