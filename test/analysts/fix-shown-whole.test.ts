import { describe, expect, it } from 'vitest';
import { addedLines } from '../../src/analysts/added-lines.js';
import { validateFix } from '../../src/analysts/validate-fix.js';

// Long enough that one control character stays under looksBinary's 1% threshold.
const PADDING = Array.from({ length: 30 }, (_, i) => `// connection helper note ${i}: keep the pool small\n`).join('');
const BEFORE = `export function connect(config) {\n  return open(config.url);\n}\n${PADDING}`;
const candidates = [{ file: 'src/db.ts', content: BEFORE, score: 1 }];
const propose = (added: string) => validateFix({ file: 'src/db.ts', newContent: BEFORE.replace('  return', `${added}\n  return`), explanation: 'x' }, candidates);
const reason = (result: ReturnType<typeof validateFix>) => (result.ok ? 'accepted' : result.reason);

describe('a fix is refused, never masked, when its added lines cannot be shown as they are', () => {
  it.each([
    ['a vendor token', '  const token = "ghp_R4nd0mT0k3nV4lu3Abcdefghij0123456789";'],
    ['a literal password', '  config.password = "Winter2026!";'],
    ['a credential in a URL', '  const url = "postgres://app:s3cr3tpw@db:5432/app";'],
    ['a random-looking key', '  headers["x-key"] = "9sKd83JfLq02MzXp4RtYb7NcVw1QeHg6";'],
    ['a private key', '  const pem = "-----BEGIN PRIVATE KEY-----MIIEv";'],
  ])('%s is refused as secret-shaped', (_name, line) => {
    expect(reason(propose(line))).toMatch(/added line 2 holds a secret-shaped string/);
  });

  it.each([
    ['a bidi override', '  if (user.role !== "admin\u202e") return;'],
    ['a zero-width space', '  const limit\u200b = 10;'],
    ['a terminal escape', '  log("\x1b[2K");'],
    ['a bell', '  log("\x07");'],
    ['a tag character', '  run(\u{e0041});'],
  ])('%s is refused and shown as an escape', (_name, line) => {
    const why = reason(propose(line));
    expect(why).toMatch(/added line 2 holds invisible or control characters \(.*\\(x|u\{)/);
    expect(why).not.toMatch(/[\u202e\u200b\x1b\x07\u{e0041}]/u); // eslint-disable-line no-control-regex -- the reason itself shows no raw control
  });

  it.each([
    '  const password = req.body.password;',
    '  if (token === undefined) throw new Error("token missing");',
    '  const apiKey = process.env.API_KEY;',
    '  log(`retrying ${attempt}/3 at 2026-12-01T10:15:00Z`);',
    '  const id = "123e4567-e89b-12d3-a456-426614174000";',
  ])('ordinary code is accepted: %s', (line) => {
    expect(reason(propose(line))).toBe('accepted');
  });

  it('numbers added lines by their place in the new file, CRLF or not', () => {
    expect(addedLines('a\r\nb\r\n', 'a\r\nx\r\nb\r\ny\r\n')).toEqual([{ number: 2, text: 'x' }, { number: 4, text: 'y' }]);
  });
});
