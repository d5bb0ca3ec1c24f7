/**
 * Secrets recognised by their own shape, with no name beside them: vendor tokens with a published
 * prefix, JWTs, PEM private keys, credentials inside URLs, and long random strings. Every pattern
 * starts at a literal or a word start and every repetition is bounded, so matching is linear.
 */

export interface ShapeRule {
  label: string;
  re: RegExp;
  /** Returns false to keep a match that has the shape but is not a secret. */
  accept?: (match: string) => boolean;
  /** Literals of which every match holds one (case-sensitive): a text holding none skips the rule. */
  hints?: string[];
  /** The first group is context (a URL's scheme and user), kept in front of the marker. */
  keepFirstGroup?: boolean;
}

const B = '(?<![A-Za-z0-9_-])';

/** PEM private keys, first: their base64 body would otherwise be taken for tokens. */
export const PEM_BLOCK: ShapeRule = { label: 'private-key', hints: ['PRIVATE KEY'], re: /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|$)/g };

/**
 * Passwords a command line carries in a flag of its own: `-pPASS` glued to the flag (mysql and its
 * tools; `-pthread` and `-pedantic`, lower-case words, and `-p8080` ports are flags, `-p$VAR` names
 * one) and `user:password` after `-u`/`--user` (curl; `-u 1000:1000` is a uid:gid, and a value
 * starting with `-` is the next flag).
 */
const CLI_PASSWORDS: ShapeRule[] = [
  {
    label: 'password', hints: ['-p'], keepFirstGroup: true,
    // The `-` first, its left side checked after it: a literal start lets the engine skip to each `-`.
    re: /(-(?<![\w-]-)p)("[^"\n]{1,256}"|'[^'\n]{1,256}'|[^\s"'`]{1,256})/g,
    accept: (match) => {
      const value = match.slice(2);
      return /^["']/.test(value) || !(/^[a-z][a-z-]*$/.test(value) || /^[\d:.,/-]+$/.test(value) || /^[/.~$%{<[]/.test(value));
    },
  },
  {
    label: 'password', hints: ['-u', '-U'], keepFirstGroup: true,
    re: /(-(?<![\w-]-)(?:u|U|-user|-proxy-user)(?:[ \t]{1,4}|=)["']?[^\s:'"@/]{1,128}:)([^\s'"-][^\s'"]{0,255})/g,
    accept: (match) => !/^(?:\d+|\$\w+|\$\{[^}]*\})$/.test(match.slice(match.indexOf(':') + 1)),
  },
];

/** Shapes that span spaces or punctuation: webhook URLs, `Scheme token` headers (after vendor prefixes, which name a token better). */
export const SPANNING_SHAPES: ShapeRule[] = [
  { label: 'slack-webhook', hints: ['hooks.slack'], re: /https:\/\/hooks\.slack(?:-gov)?\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{1,256}/g },
  // Discord's and Teams' incoming webhooks: the URL is the credential (anyone holding it may post).
  { label: 'discord-webhook', hints: ['discord'], re: /https:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/api(?:\/v\d{1,2})?\/webhooks\/\d{5,24}\/[A-Za-z0-9_-]{1,256}/g },
  { label: 'teams-webhook', hints: ['webhook.office.com'], re: /https:\/\/[A-Za-z0-9-]{1,63}\.webhook\.office\.com\/webhookb2\/[A-Za-z0-9@/_.-]{1,512}/g },
  ...CLI_PASSWORDS,
  { label: 'bearer', re: /\b(?:Bearer|Basic|Splunk|Token|Digest|Negotiate|SSWS|ApiKey|Api-Key)[ \t]{1,8}[A-Za-z0-9._~+/=-]{12,4096}/gi, accept: isSchemeToken },
];

/**
 * Registry, code-host, chat and cloud tokens whose issuers publish a fixed prefix. They are tried
 * only inside runs of 20 or more token characters (TOKEN_RUN), which ordinary
 * text rarely holds, so most text is never searched for them at all.
 */
export const PREFIXED_TOKENS: ShapeRule[] = [
  { label: 'age-secret-key', hints: ['AGE-SECRET-KEY-1'], re: /AGE-SECRET-KEY-1[0-9A-Z]{50,70}/g },
  { label: 'aws-access-key', hints: ['AKIA', 'ASIA', 'AGPA', 'AIDA', 'AROA', 'ANPA', 'ABIA', 'ACCA'], re: new RegExp(`${B}(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ABIA|ACCA)[0-9A-Z]{16}(?![0-9A-Z])`, 'g') },
  { label: 'gcp-api-key', hints: ['AIza'], re: new RegExp(`${B}AIza[0-9A-Za-z_-]{35}`, 'g') },
  { label: 'gcp-oauth', hints: ['ya29.', 'GOCSPX-', '1//0'], re: new RegExp(`${B}(?:ya29\\.[0-9A-Za-z_-]{20,2048}|GOCSPX-[0-9A-Za-z_-]{20,64}|1//0[0-9A-Za-z_-]{30,512})`, 'g') },
  { label: 'slack-token', hints: ['xox', 'xapp-'], re: new RegExp(`${B}(?:xox[abposre](?:\\.xox[a-z])?-[A-Za-z0-9-]{10,256}|xapp-\\d-[A-Za-z0-9-]{10,256})`, 'g') },
  { label: 'github-token', hints: ['gh', 'github_pat_'], re: new RegExp(`${B}(?:gh[pousr]_[A-Za-z0-9]{20,255}|github_pat_[A-Za-z0-9_]{20,255})`, 'g') },
  { label: 'gitlab-token', hints: ['gl', 'GR1348941'], re: new RegExp(`${B}(?:gl(?:pat|dt|rt|cbt|ptt|ft|imt|agent|oas|soat|ffct|wt)-[A-Za-z0-9_-]{20,255}|GR1348941[A-Za-z0-9_-]{20,64})`, 'g') },
  { label: 'npm-token', hints: ['npm_'], re: new RegExp(`${B}npm_[A-Za-z0-9]{36}`, 'g') },
  { label: 'pypi-token', hints: ['pypi-'], re: new RegExp(`${B}pypi-[A-Za-z0-9_-]{50,512}`, 'g') },
  { label: 'rubygems-token', hints: ['rubygems_'], re: new RegExp(`${B}rubygems_[a-f0-9]{48}`, 'g') },
  { label: 'nuget-key', hints: ['oy2'], re: new RegExp(`${B}oy2[a-z0-9]{43}`, 'g') },
  { label: 'docker-token', hints: ['dckr_'], re: new RegExp(`${B}dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,128}`, 'g') },
  { label: 'crates-token', hints: ['cio'], re: new RegExp(`${B}cio[A-Za-z0-9]{32}(?![A-Za-z0-9])`, 'g') },
  { label: 'openai-key', hints: ['sk-'], re: new RegExp(`${B}sk-(?:proj-|svcacct-|admin-|ant-(?:api\\d\\d-|admin\\d\\d-)?)?[A-Za-z0-9_-]{20,255}`, 'g') },
  { label: 'stripe-key', hints: ['_live_', '_test_', 'whsec_'], re: new RegExp(`${B}(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,255}|${B}whsec_[0-9A-Za-z]{16,255}`, 'g') },
  { label: 'sendgrid-key', hints: ['SG.'], re: /\bSG\.[A-Za-z0-9_-]{16,64}\.[A-Za-z0-9_-]{16,64}/g },
  { label: 'vendor-token', hints: ['shp', 'ATATT3', 'do', 'hv', 'atlasv1', 'lin_', 'PMAK-', 'HRKU-', 'dp.', 'pul-', 'dapi', 'gl', 'sntry', 'NRAK-', 'hf_', 'r8_', 'gsk_', 'figd_', 'ntn_', 'secret_', 'sq0', 'EAAA', 'key-', 'SK', 'xkeysib-', 'access_token$', '-us', 'dt0', 'LTAI', 'AKCp', 'FLWSECK', 'pscale_', 'pnu_', 'rdme_', 'shippo_', 'tfp_', 'sk.eyJ', 'NRJS-', 'Q~'], re: new RegExp(
    `${B}(?:shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}|ATATT3[A-Za-z0-9_=-]{20,255}|do[opr]_v1_[a-f0-9]{64}|hv[sbr]\\.[A-Za-z0-9_-]{20,255}|` +
    `[a-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_-]{60,128}|lin_(?:api|oauth)_[A-Za-z0-9]{32,64}|PMAK-[a-f0-9]{24}-[a-f0-9]{34}|HRKU-[A-Za-z0-9_-]{20,128}|` +
    `dp\\.(?:pt|st|ct|sa|scim|audit)\\.[A-Za-z0-9]{20,64}|pul-[a-f0-9]{40}|dapi[a-f0-9]{32}|gl(?:c|sa)_[A-Za-z0-9_+/=-]{32,255}|` +
    `sntry[su]_[A-Za-z0-9_+/=-]{32,255}|NRAK-[A-Z0-9]{27}|hf_[A-Za-z0-9]{30,64}|r8_[A-Za-z0-9]{30,64}|gsk_[A-Za-z0-9]{40,64}|` +
    `figd_[A-Za-z0-9_-]{30,64}|ntn_[A-Za-z0-9]{40,64}|secret_[A-Za-z0-9]{43}|sq0(?:atp|csp)-[A-Za-z0-9_-]{22,64}|EAAA[A-Za-z0-9_-]{60}|` +
    `key-[a-f0-9]{32}|SK[a-f0-9]{32}|xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}|` +
    `access_token\\$production\\$[a-z0-9]{16}\\$[a-f0-9]{32}|[0-9a-f]{32}-us\\d{1,2}|` +
    `dt0[a-zA-Z]\\d{2}\\.[A-Z0-9]{24}\\.[A-Z0-9]{64}|LTAI[A-Za-z0-9]{12,20}|AKCp[A-Za-z0-9]{69}|FLWSECK(?:_TEST)?-[a-h0-9]{32}-X|` +
    `pscale_(?:tkn|oauth|pw)_[A-Za-z0-9=._-]{32,64}|pnu_[A-Za-z0-9]{36}|rdme_[a-z0-9]{70}|shippo_(?:live|test)_[a-f0-9]{40}|` +
    `tfp_[A-Za-z0-9_.=-]{59}|sk\\.eyJ[A-Za-z0-9_-]{20,}\\.[A-Za-z0-9_-]{20,}|NRJS-[a-f0-9]{19}|[A-Za-z0-9_~.]{3}\\dQ~[A-Za-z0-9_~.-]{31,34})(?![A-Za-z0-9])`, 'g') },
  { label: 'discord-token', hints: ['.'], re: new RegExp(`${B}[MNO][A-Za-z\\d_-]{23,27}\\.[\\w-]{6}\\.[\\w-]{27,40}(?![\\w-])`, 'g') },
  { label: 'telegram-token', hints: [':AA'], re: /(?<![\w:])\d{8,10}:AA[A-Za-z0-9_-]{33}(?![\w-])/g },
  { label: 'jwt', hints: ['eyJ'], re: new RegExp(`${B}eyJ[A-Za-z0-9_-]{8,4096}\\.eyJ[A-Za-z0-9_-]{8,8192}\\.[A-Za-z0-9_-]{0,4096}`, 'g') },
];

/** `Bearer <token>`: no `name=value` inside (`token_type=Bearer expires_in=3600`), and not a plain word. */
function isSchemeToken(match: string): boolean {
  const token = match.slice(match.search(/[ \t]/)).trim();
  // `Basic authentication failed`: one plain word is prose, not a credential.
  return !/=[^=]/.test(token) && (/\d/.test(token) || (/[A-Z]/.test(token) && /[a-z]/.test(token)) || token.length >= 20 || /[._~+/-]/.test(token));
}

/** Runs of the characters tokens are made of; the shortest prefixed token is 20 characters. */
export const TOKEN_RUN = /(?<![A-Za-z0-9_.+/=:$~-])[A-Za-z0-9_.+/=:$~-]{20,}/g;

/**
 * `scheme://user:password@host` (the password) and `scheme://token@host` (a random-looking user).
 * Found from the literal `://`, with the scheme checked behind it, so only URLs cost anything.
 */
export const URL_CREDENTIALS = /(?<=(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{0,31}):\/\/([^\s:/@[\]]{0,256}:)?(?!\[REDACTED)([^\s@/]{1,256})(?=@)/gi;

export function redactUrlCredentials(text: string): string {
  if (!text.includes('://')) return text;
  return text.replace(URL_CREDENTIALS, (match: string, user: string | undefined, secret: string) => {
    if (user !== undefined) return `://${user}[REDACTED:url-password]`;
    return secret.length >= 24 && looksRandom(secret) ? '://[REDACTED:url-token]' : match;
  });
}

/** Ordinary identifiers change character class rarely; random tokens change it on most characters and carry digits. */
export function looksRandom(value: string): boolean {
  if (value.length < 16) return false;
  let upper = 0;
  let lower = 0;
  let digit = 0;
  let other = 0;
  let switches = 0;
  let previous = '';
  for (const char of value) {
    const cls = char >= 'A' && char <= 'Z' ? 'u' : char >= 'a' && char <= 'z' ? 'l' : char >= '0' && char <= '9' ? 'd' : 'o';
    if (cls === 'u') upper++;
    else if (cls === 'l') lower++;
    else if (cls === 'd') digit++;
    else if (!'+/=_-'.includes(char)) other++;
    if (previous !== '' && cls !== previous) switches++;
    previous = cls;
  }
  if (other > value.length * 0.1) return false;
  // Identifiers in CamelCase change class at word starts only (a rate near 0.3); random base62 near 0.6.
  return upper > 0 && lower > 0 && digit >= 2 && switches / value.length >= 0.35;
}

/**
 * Long strings that look random: both letter cases and digits, and a character class that changes
 * on a third of its characters or more. Git shas, UUIDs and hex digests (one letter case) stay,
 * and so do identifiers, paths and timestamps, which change class rarely.
 */
export const RANDOM_TOKEN: ShapeRule = {
  label: 'token',
  re: /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/=_-]{32,}/g,
  accept: (match) => {
    if (!/[A-Z]/.test(match) || !/[a-z]/.test(match) || !/\d/.test(match)) return false;
    if (match.includes('//') || match.startsWith('/')) return false;
    const pieces = match.split(/[/_-]/);
    if (pieces.some((piece) => piece.length >= 20 && looksRandom(piece))) return true;
    // Joined pieces are judged whole only when none is a word: `fix/inc-7f3a-20261201T1015Z` is a branch.
    return !pieces.some((piece) => /^(?:[a-z]{2,}|[A-Z]{2,}|[A-Z][a-z]+)$/.test(piece)) && looksRandom(pieces.join(''));
  },
};
