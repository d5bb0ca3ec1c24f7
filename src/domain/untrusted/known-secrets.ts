/**
 * Medic's own configured secrets (tokens, keys, passwords, credentials inside URLs), redacted by
 * value wherever they appear, in whatever shape: a HEC GUID or a self-hosted token has no
 * recognisable form, so only knowing the value catches it.
 *
 * This is process-wide state on purpose: redaction runs in presenters, loggers, git and the
 * model's path, and a value registered once at configuration time must guard all of them.
 */

const known = new Set<string>();
/** Longest first, so a value containing another is replaced whole. */
let ordered: string[] = [];
/** Shorter values would hide ordinary words; no real credential is this short. */
const MIN_LENGTH = 6;
/** Variables whose value is a credential, by name. */
const SECRET_NAME = /(?:TOKEN|SECRET|PASSWORD|PASSWD|PASS|KEY|CREDENTIALS?|PRIVATE)(?:_|$)/;

function variants(value: string): string[] {
  const out = [value, encodeURIComponent(value), Buffer.from(value).toString('base64').replace(/=+$/, '')];
  // A PEM key may be shown with escaped newlines (inside JSON) or one line at a time.
  if (value.includes('\n')) out.push(value.replace(/\n/g, '\\n'), ...value.split('\n').filter((line) => line.length >= 24));
  return out;
}

export function registerSecretValue(value: string | undefined): void {
  const trimmed = value?.trim();
  if (!trimmed || trimmed.length < MIN_LENGTH) return;
  for (const variant of variants(trimmed)) if (variant.length >= MIN_LENGTH) known.add(variant);
  ordered = [...known].sort((a, b) => b.length - a.length);
}

/** The password inside `scheme://user:password@host` of a configured URL. */
function urlPassword(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.password ? decodeURIComponent(url.password) : undefined;
  } catch {
    return undefined;
  }
}

/** Registers every configured secret: variables named like one, and passwords inside configured URLs. */
export function registerConfiguredSecrets(config: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(config)) {
    if (typeof value !== 'string') continue;
    if (SECRET_NAME.test(name) && !/(?:_FILE|_PATH|_ID|_HEADER|_FIELD)$/.test(name)) registerSecretValue(value);
    const password = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? urlPassword(value) : undefined;
    if (password) registerSecretValue(password);
  }
}

export function redactKnownSecrets(text: string): string {
  let out = text;
  for (const value of ordered) {
    if (out.includes(value)) out = out.split(value).join('[REDACTED:configured-secret]');
  }
  return out;
}

/** For tests: forget what was registered. */
export function clearKnownSecrets(): void {
  known.clear();
  ordered = [];
}
