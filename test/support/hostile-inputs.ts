/**
 * Adversarial inputs for every function that reads untrusted text: the shapes that make
 * backtracking regexes quadratic (long runs with no match, near-matches, keys with no value,
 * nested separators, unclosed quotes and tags), delimiters, and unicode. Shared by the
 * hostile-input suite and `npm run bench -- redaction`.
 */
export const HOSTILE_SIZE = 64 * 1024;

function fill(unit: string, size: number): string {
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

function counting(make: (i: number) => string, size: number): string {
  let out = '';
  for (let i = 0; out.length < size; i++) out += make(i);
  return out.slice(0, size);
}

export function hostileInputs(size = HOSTILE_SIZE): Record<string, string> {
  return {
    'spaces': ' '.repeat(size),
    'tabs and newlines': fill(' \t\n', size),
    'one long word': 'a'.repeat(size),
    'long digit run': '7'.repeat(size),
    'long hex run': fill('0123456789abcdef', size),
    'long base64-ish run': fill('aZ3+/', size),
    'key with no value': fill('password=', size),
    'key colon spaces': fill('token:    ', size),
    'key then spaces': fill('secret     ', size),
    'flag with no value': fill('--password ', size),
    'unclosed quotes': fill('password="', size),
    'escaped quotes': fill('\\"api_key\\":\\"', size),
    'unclosed tags': fill('<password>', size),
    'many distinct keys': counting((i) => `db_pass${i}=v${i} `, size),
    'cookie pairs': `Cookie: ${fill('a=b; ', size)}`,
    'url params': fill('?token=&sig=&', size),
    'schemes': fill('a://', size),
    'userinfo near-match': fill('http://u:', size),
    'dotted words': fill('a.', size),
    'email near-match': fill('a@a.', size),
    'bearer repeated': fill('Bearer ', size),
    'pem begin repeated': fill('-----BEGIN ', size),
    'jwt near-match': fill('eyJabcdefgh.', size),
    'vendor prefixes': fill('ghp_ xoxb- sk- glpat- npm_ AKIA ', size),
    'spaced digits': fill('1 ', size),
    'dashed digits': fill('1-', size),
    'iban near-match': fill('DE89 ', size),
    'nested separators': fill('a=b=c:d;e,f&g|', size),
    'brackets': fill('{[(<', size),
    'fence delimiters': fill('<<untrusted-logs nonce=x>> ', size),
    'fence near-match': fill('<< / untrusted', size),
    'stack frame near-match': fill('    at a.b (', size),
    'python frame near-match': fill('  File "', size),
    'slack specials': fill('<!channel> <@U1> &lt; ', size),
    'camelCase chain': fill('aB', size),
    'unicode mix': fill('é🙂\u200b\u202eｱ', size),
    // A hunk's content written like its header lines (an added `++ x` is `+++ x`).
    'diff header shapes': fill('+++ b/x\n--- a/x\n@@ -1 +1 @@\n\\ No newline\n', size),
    // Secret shapes met in real text, as near-matches that never complete (each names its source):
    // `encryptionKey=`/`signingKey:` — camelCase crypto settings in config dumps (Spring `encrypt.key`, jose `signingKey`).
    'crypto key names': fill('encryptionKey=signingKey: ', size),
    // `mysql -pPASSWORD` — the MySQL client's glued password flag (MySQL manual, "End-User Guidelines for Password Security").
    'glued -p flags': fill('-p"-p\'-p', size),
    // `curl -u user:password` — curl(1) `--user <user:password>`.
    'curl -u near-match': fill('-u a:--user ', size),
    // `https://discord.com/api/webhooks/<id>/<token>` — Discord's Webhook resource (developer docs).
    'discord webhook near-match': fill('https://discord.com/api/webhooks/1/', size),
    // `ｐａｓｓｗｏｒｄ＝` — fullwidth forms (U+FF01–FF5E) that NFKC folds to ASCII, as CJK input methods type them.
    'fullwidth key names': fill('ｐａｓｓｗｏｒｄ＝ ', size),
    // What GitHub and CI act on in a commit or PR, repeated and nested: `Fixes #1`, `[skip ci]`, `](`, `![`, `@`.
    'git markup': fill('Fixes org/r#1 [skip ci] ***NO_CI*** skip-checks: ![[a](http://x)]( @@a ', size),
    // Look-alike identifiers (UTS #39 mixed-script confusables): Latin with Cyrillic і and Greek ρ, glued and spaced.
    'mixed-script identifiers': fill('isAdm\u0456n\u03c1 x\u0456 ', size),
    'control characters': fill('\x1b[2K\x07\r', size),
  };
}
