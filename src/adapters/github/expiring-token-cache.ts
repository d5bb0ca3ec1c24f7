/**
 * A token cache for @octokit/auth-app that honours each installation token's own `expires_at`.
 * auth-app's default cache keeps a token for a fixed 59 minutes whatever GitHub (or a GitHub
 * Enterprise server with another lifetime) says; this one drops it `marginMs` before it expires,
 * with the clock as a parameter so tests can move time instead of waiting.
 *
 * auth-app stores "token|createdAt|expiresAt|…" strings; only the third field is read here.
 */
export interface AuthAppCache {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

export function createExpiringTokenCache(options: { now?: () => number; marginMs?: number } = {}): AuthAppCache {
  const now = options.now ?? Date.now;
  const marginMs = options.marginMs ?? 5 * 60_000;
  const store = new Map<string, string>();
  return {
    get(key) {
      const value = store.get(key);
      if (value === undefined) return undefined;
      const expiresAt = Date.parse(value.split('|')[2] ?? '');
      if (!Number.isFinite(expiresAt) || expiresAt - marginMs <= now()) {
        store.delete(key);
        return undefined;
      }
      return value;
    },
    set(key, value) {
      store.set(key, value);
    },
  };
}
