import { describe, expect, it } from 'vitest';
import { parseJsonRecord, parsePlainRecord } from '../../src/adapters/file-logs/parse-entry.js';
import { redactGitText } from '../../src/adapters/git/git-credentials.js';
import { commitMessage } from '../../src/adapters/git/git-fix-publisher.js';
import { findUnshowableAddition } from '../../src/analysts/added-lines.js';
import { looksBinary } from '../../src/analysts/validate-fix.js';
import { terminalJson, terminalText } from '../../src/cli/terminal-output.js';
import { extractTerms } from '../../src/code-search/terms.js';
import { fingerprintEvent } from '../../src/domain/fingerprint.js';
import { parseStackTrace } from '../../src/domain/stack-trace.js';
import { maskMessage } from '../../src/domain/templates/mask-message.js';
import { parseDiffBody } from '../../src/domain/diff-hunks.js';
import { createFixProposal } from '../../src/domain/fix.js';
import { compactLines } from '../../src/domain/untrusted/compact.js';
import { findMixedScriptIdentifiers } from '../../src/domain/untrusted/mixed-script.js';
import { INERT_AFTER, inertGitText } from '../../src/domain/untrusted/inert-git-text.js';
import { neutralizeFenceMarkers } from '../../src/domain/untrusted/fence.js';
import { normalizeUntrusted, revealInvisible } from '../../src/domain/untrusted/invisible.js';
import { prepareLines, prepareText } from '../../src/domain/untrusted/prepare.js';
import { redactDocText, redactSecrets } from '../../src/domain/untrusted/redact.js';
import { diffStats, previewLines } from '../../src/presenters/diff-pages.js';
import { presentIncidentCard } from '../../src/presenters/incident-card.js';
import { untrusted, untrustedCode } from '../../src/presenters/mrkdwn.js';
import { presentPullRequestBody } from '../../src/presenters/pull-request-body.js';
import { similarDocsQuery } from '../../src/retrieval/find-similar-docs.js';
import { buildEvent, buildIncident } from '../support/builders.js';
import { HOSTILE_SIZE, hostileInputs } from '../support/hostile-inputs.js';

// Generous on purpose: the machine is shared and the bench measures the real figure
// (`npm run bench -- redaction`); a quadratic function takes seconds on these inputs.
const BOUND_MS = 750;
const NONCE = 'n0nce1234abcd';
// Redaction keeps tab, newline and carriage return (log text); terminals must see none raw but tab and newline.
const STRIPPED = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\u{e0000}-\u{e0fff}]/u; // eslint-disable-line no-control-regex -- these characters are what must not come out
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\u{e0000}-\u{e0fff}]/u; // eslint-disable-line no-control-regex -- these characters are what must not come out
const SLACK_MARKUP = /<[!@#]|<https?:/;

type Check = (out: unknown, input: string) => void;
const text = (out: unknown) => (typeof out === 'string' ? out : JSON.stringify(out));
const noRawControls: Check = (out) => expect(text(out)).not.toMatch(RAW_CONTROL);
const stripped: Check = (out) => expect(text(out)).not.toMatch(STRIPPED);
// GitHub text is made inert with zero-width spaces of its own (inert-git-text.ts); nothing else hidden may remain.
const strippedButDefused: Check = (out) => expect(text(out).replace(INERT_AFTER, (m) => m.slice(0, 1))).not.toMatch(STRIPPED);
// The mrkdwn escaper defuses `*`, `_`, `~` and backticks with zero-width spaces of its own; nothing else hidden may remain.
const slackSafe: Check = (out) => {
  expect(text(out)).not.toMatch(SLACK_MARKUP);
  expect(text(out).replace(/\u200b(?=[*_~`])|(?<=[*_~`])\u200b/g, '')).not.toMatch(/[\u202a-\u202e\u200b\u{e0000}-\u{e0fff}]/u);
};
const fenced: Check = (out) => {
  const { fenced: section } = out as { fenced: string };
  expect(section.split(`<</untrusted-logs nonce=${NONCE}>>`)).toHaveLength(2);
  expect(section.split(`<<untrusted-logs nonce=${NONCE}>>`)).toHaveLength(2);
};
const anything: Check = () => undefined;

const event = (s: string) => buildEvent({ message: s.slice(0, 16_000), raw: s.slice(0, 65_536) });
/** The input as the added side of a one-hunk diff: every line content, whatever it starts with. */
const asDiff = (input: string) => {
  const added = input.split('\n').slice(0, 5_000);
  return `--- a/src/a.py\n+++ b/src/a.py\n@@ -0,0 +1,${added.length} @@\n${added.map((l) => `+${l}`).join('\n')}\n`;
};
const SAMPLE = createFixProposal({ file: 'src/a.py', before: '', after: 'x\n', explanation: 'x' });
const lines = (input: string) => input.split('\n').slice(0, 5_000).map((line, i) => ({ id: `log-${i}`, text: line }));

const FUNCTIONS: [string, (input: string) => unknown, Check][] = [
  ['redactSecrets', (s) => redactSecrets(s, { emails: true }), stripped],
  ['redactSecrets (code)', (s) => redactSecrets(s, { code: true }), stripped],
  ['redactDocText', redactDocText, stripped],
  ['normalizeUntrusted', normalizeUntrusted, stripped],
  ['revealInvisible', revealInvisible, noRawControls],
  ['neutralizeFenceMarkers', (s) => neutralizeFenceMarkers(s, NONCE), (out) => expect(out as string).not.toMatch(/<<\s*\/?\s*untrusted/)],
  ['prepareText (fence)', (s) => prepareText(s, { label: 'logs', nonce: NONCE, maxTokens: 4_000 }), fenced],
  ['prepareLines (fence)', (s) => prepareLines(lines(s), { label: 'logs', nonce: NONCE, maxTokens: 4_000, maxLineChars: 400 }), fenced],
  ['compactLines', (s) => compactLines(lines(s), { maxLineChars: 400, maxTokens: 4_000 }), anything],
  ['maskMessage (templates)', (s) => maskMessage(s), anything],
  ['extractTerms', extractTerms, anything],
  ['parseStackTrace', parseStackTrace, anything],
  ['fingerprintEvent', (s) => fingerprintEvent(event(s), s.slice(0, 200)), anything],
  ['parseJsonRecord', (s) => parseJsonRecord(JSON.stringify({ time: '2026-01-01T00:00:00Z', level: 'error', message: s }), 'x', ['requestId']), anything],
  ['parsePlainRecord', (s) => parsePlainRecord(`2026-01-01T00:00:00Z ERROR ${s}`, 'x', ['requestId']), anything],
  ['similarDocsQuery', (s) => similarDocsQuery(event(s), s), stripped],
  ['redactGitText', (s) => redactGitText(s, ['s3cr3t-value']), stripped],
  ['presenter: untrusted', (s) => untrusted(s, 3_000), slackSafe],
  ['presenter: untrustedCode', (s) => untrustedCode(s, 3_000), slackSafe],
  ['presenter: incident card', (s) => presentIncidentCard({ incident: buildIncident({ title: s, firstEvent: event(s) }) }), slackSafe],
  ['presenter: pull request body', (s) => presentPullRequestBody({ incidentId: 'inc-1', incidentTitle: s, rootCause: s, confidence: 0.5, evidence: [s], approver: 'U1', file: 'src/a.ts', explanation: s }), strippedButDefused],
  ['inertGitText', inertGitText, anything],
  ['findMixedScriptIdentifiers', findMixedScriptIdentifiers, anything],
  ['commit message', (s) => commitMessage({ incidentId: 'inc-1', branch: 'fix/inc-1-1', proposal: SAMPLE, message: `${s}\n\n${s}` }), strippedButDefused],
  ['CLI: terminalText', terminalText, noRawControls],
  ['CLI: terminalJson', (s) => terminalJson({ title: s }), noRawControls],
  ['CLI: terminalJson (code kept exact)', (s) => terminalJson({ diff: s }, 2, new Set(['diff'])), (out, input) => {
    noRawControls(out, input);
    expect((JSON.parse(out as string) as { diff: string }).diff).toBe(input);
  }],
  ['parseDiffBody (raw text)', parseDiffBody, anything],
  ['parseDiffBody (as hunk content)', (s) => parseDiffBody(asDiff(s)), (out, input) => expect((out as unknown[]).length).toBe(1 + Math.min(5_000, input.split('\n').length))],
  ['diff card stats and preview', (s) => { const proposal = { ...SAMPLE, diff: asDiff(s) }; return [diffStats(proposal), previewLines(proposal)]; }, slackSafe],
  ['validation: added lines', (s) => findUnshowableAddition('', s.slice(0, 8_000)), anything],
  ['validation: looksBinary', looksBinary, anything],
];

describe(`every function reading untrusted text survives ${HOSTILE_SIZE / 1024} KiB adversarial inputs`, () => {
  const inputs = Object.entries(hostileInputs());

  it.each(FUNCTIONS)('%s: finishes in bounded time, does not crash, escapes its output', (_name, run, check) => {
    for (const [shape, input] of inputs) {
      const started = performance.now();
      const out = run(input);
      const ms = performance.now() - started;
      expect(ms, `${shape} took ${ms.toFixed(0)} ms`).toBeLessThan(BOUND_MS);
      check(out, input);
    }
  });

  it('the inputs are the size the suite claims', () => {
    for (const [, input] of inputs) expect(input.length).toBeGreaterThanOrEqual(HOSTILE_SIZE);
  });
});
