/**
 * Decides whether a field name (an env variable, a JSON key, a header, a URL parameter, a CLI flag)
 * names a secret. The name is split into words (`DB_PASS`, `x-api-key`, `clientSecret`,
 * `spring.datasource.password`) and judged by its words, so any spelling of a secret-ish word in
 * any position counts — not a fixed list of whole names.
 */

/**
 * `secret`: any value is secret (passwords, secrets, PINs). `credential`: a token, session or key;
 * a short word or an object reference there (`auth:SIMPLE`, `token=Token{9f4e…}`) is not.
 * `weak`: a name that usually holds data (`key`, `cache_key`); only a random-looking value counts.
 */
export type KeyKind = 'secret' | 'credential' | 'cookie' | 'authorization' | 'weak';

/** Words whose value is secret whatever it looks like. */
const PASSWORD_WORDS = new Set([
  'password', 'passwd', 'passwrd', 'pass', 'pwd', 'pw', 'passphrase', 'passcode', 'secret', 'secrets', 'pin', 'otp',
  'totp', 'cvv', 'cvc', 'ssn', 'nino', 'bsn', 'cpf', 'aadhaar', 'passport', 'iban', 'privatekey', 'secretkey',
]);
const PASSWORD_SUFFIXES = ['password', 'passwd', 'passphrase', 'secret', 'privatekey', 'secretkey'];

/** Words that make a name secret wherever they stand in it. */
const SECRET_WORDS = new Set([
  ...PASSWORD_WORDS,
  'token', 'apikey', 'credential', 'credentials', 'creds', 'auth', 'otp', 'totp', 'pin', 'sig', 'signature',
  'session', 'sess', 'sid', 'sessionid', 'sessid', 'jsessionid', 'phpsessid', 'aspsessionid', 'csrf', 'xsrf',
  'bearer', 'privatekey', 'secretkey', 'accesskey', 'apitoken', 'authtoken', 'accesstoken', 'refreshtoken',
  'ssn', 'nino', 'bsn', 'cpf', 'aadhaar', 'passport', 'iban', 'cvv', 'cvc', 'dsn', 'hmac', 'salt',
  'connectionstring', 'connstr', 'sas',
]);

/** Compact spellings that end in a secret word (`dbpassword`, `hectoken`, `mysecret`). */
const SECRET_SUFFIXES = ['password', 'passwd', 'passphrase', 'secret', 'token', 'apikey', 'credentials', 'sessionid', 'privatekey', 'secretkey', 'accesskey'];

/** A last word that makes the name describe a secret rather than hold one (`token_count`, `password_policy`). */
const DESCRIPTIVE_LAST_WORDS = new Set([
  'count', 'counts', 'length', 'len', 'size', 'type', 'types', 'name', 'names', 'url', 'uri', 'endpoint', 'path',
  'file', 'dir', 'ttl', 'expiry', 'expires', 'expiration', 'expired', 'exp', 'timeout', 'lifetime', 'age', 'max', 'min',
  'limit', 'policy', 'mode', 'method', 'format', 'version', 'ref', 'arn', 'header', 'field', 'prefix', 'hint', 'scope',
  'scopes', 'kind', 'provider', 'enabled', 'disabled', 'required', 'valid', 'invalid', 'missing', 'present', 'source',
  'rotation', 'rotated', 'strength', 'algorithm', 'alg', 'index', 'idx', 'usage', 'used', 'reset', 'changed', 'updated',
  'created', 'error', 'errors', 'status', 'bytes', 'chars', 'rules', 'issuer', 'audience', 'location', 'store', 'manager',
]);

/** `partition_key`, `cache_key`: a key that usually names data; redacted only when its value looks random. */
const DATA_KEY_QUALIFIERS = new Set([
  'public', 'primary', 'foreign', 'partition', 'sort', 'cache', 'routing', 'idempotency', 'object', 'row', 'lookup',
  'map', 'dedup', 'dedupe', 'group', 'shard', 'cluster', 'composite', 'unique', 'natural', 'surrogate', 'bucket',
  'message', 'event', 'translation', 'i18n', 'sort', 'hash', 'range', 'join', 'index', 'metric', 'label', 'cursor', 'page',
]);

/**
 * `signingKey`, `encryptionKey`, `aesKey`: a key named for what it does in cryptography holds key
 * material in any spelling, camelCase included (which otherwise reads as code naming data).
 */
const CRYPTO_KEY_QUALIFIERS = new Set([
  'encryption', 'decryption', 'encrypt', 'decrypt', 'enc', 'signing', 'cipher', 'crypto', 'aes', 'rsa', 'ecdsa', 'master',
  'wrapping', 'kek', 'dek', 'jwt', 'jws', 'jwe', 'symmetric',
]);

function secretish(word: string): boolean {
  if (SECRET_WORDS.has(word)) return true;
  for (const suffix of SECRET_SUFFIXES) if (word.length > suffix.length && word.endsWith(suffix)) return true;
  return false;
}

function isPasswordWord(word: string): boolean {
  return PASSWORD_WORDS.has(word) || PASSWORD_SUFFIXES.some((suffix) => word.length > suffix.length && word.endsWith(suffix));
}

const COOKIE_NAMES = new Set(['cookie', 'setcookie']);
const AUTHORIZATION_NAMES = new Set(['authorization', 'proxyauthorization', 'authorisation', 'wwwauthenticate']);

const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;

/**
 * Splits `X-Api-Key`, `DB_PASS2`, `clientSecret`, `APIKey`, `spring.datasource.password` into
 * lower-case words of letters. A hand loop: this runs once per field name in every text.
 */
export function keyWords(key: string): string[] {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i <= key.length; i++) {
    const c = i < key.length ? key.charCodeAt(i) : 0;
    const letter = isUpper(c) || isLower(c);
    const prev = i > 0 ? key.charCodeAt(i - 1) : 0;
    const next = i + 1 < key.length ? key.charCodeAt(i + 1) : 0;
    // A word starts at an upper-case letter after a lower-case one (`clientSecret`) or before one (`APIKey`).
    const boundary = letter && start >= 0 && isUpper(c) && (isLower(prev) || (isUpper(prev) && isLower(next)));
    if ((!letter || boundary) && start >= 0) {
      words.push(key.slice(start, i).toLowerCase());
      start = -1;
    }
    if (letter && start < 0) start = i;
  }
  return words;
}

/** Every name that can classify contains one of these; the rest are refused without splitting. */
const CANDIDATE = /pass|pw|secret|token|key|auth|cred|sess|sid|sig|cookie|csrf|xsrf|otp|pin|ssn|nino|bsn|cpf|aadhaar|iban|cvv|cvc|dsn|hmac|salt|conn|sas|bearer/i;

/**
 * `spring.datasource.password` is judged by `password`, `com.acme.TokenCache.evict` (a stack frame)
 * by `evict`; a bare last segment such as `key` keeps the one before it (`aws.secret.key`).
 */
function lastSegments(key: string): string {
  const segments = key.split('.').filter((s) => s.length > 0);
  const last = segments[segments.length - 1] ?? key;
  return segments.length > 1 && keyWords(last).length === 1 && /^(?:keys?|value|id)$/i.test(last) ? segments.slice(-2).join('.') : last;
}

/** False when no field name in the text could be secret-ish: the text needs no field scan. */
export function mayNameSecret(text: string): boolean {
  return CANDIDATE.test(text);
}

export function classifyKey(key: string): KeyKind | undefined {
  if (!CANDIDATE.test(key)) return undefined;
  const words = keyWords(lastSegments(key));
  const last = words[words.length - 1];
  if (last === undefined) return undefined;
  const joined = words.join('');
  if (COOKIE_NAMES.has(joined)) return 'cookie';
  if (AUTHORIZATION_NAMES.has(joined)) return 'authorization';
  // `api key`, `x-api-key`, `api_key` all join to an `apikey` word.
  const hasSecretWord = words.some((w, i) => secretish(w) || (i > 0 && secretish((words[i - 1] ?? '') + w)));
  if (hasSecretWord && !DESCRIPTIVE_LAST_WORDS.has(last)) return words.some(isPasswordWord) ? 'secret' : 'credential';
  if (last === 'key' || last === 'keys') {
    // `STRIPE_KEY`, `x-signing-key`, `AccountKey`: a configuration name. `getKey`, `n.key`: code naming data.
    if (words.some((w) => CRYPTO_KEY_QUALIFIERS.has(w))) return 'credential';
    const name = key.slice(key.lastIndexOf('.') + 1);
    const configName = (/^[A-Za-z0-9]+(?:[_-][A-Za-z0-9]+)+$/.test(name) && !/[a-z][A-Z]/.test(name)) || /^(?:[A-Z][a-z0-9]+){2,}$/.test(name);
    if (!configName || words.some((w) => DATA_KEY_QUALIFIERS.has(w))) return 'weak';
    return 'credential';
  }
  return undefined;
}
