/**
 * The pull request body: what the reviewer needs to judge the fix without opening Slack — the
 * root cause, the confidence, the evidence, who approved it and a link back to the incident.
 * Pure, redacted and size-capped; every line of untrusted text is quoted and inert, never live markup.
 */
import { inertGitText } from '../domain/untrusted/inert-git-text.js';
import { redactSecrets } from '../domain/untrusted/redact.js';

export interface PullRequestBodyInput {
  incidentId: string;
  incidentTitle: string;
  incidentUrl?: string;
  rootCause: string;
  confidence: number;
  evidence: string[];
  approver: string;
  file: string;
  explanation: string;
  recommendation?: string;
}

const MAX_EVIDENCE = 8;
const MAX_BODY = 60_000;

/**
 * Untrusted text as an inline-safe quote block: no HTML or entities, no mentions, no issue
 * references or closing keywords, no CI directives, no links or images (inert-git-text.ts).
 */
function quote(text: string, max: number): string {
  const clean = inertGitText(redactSecrets(text)
    .slice(0, max)
    .replace(/[<>&]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&amp;')));
  return clean.split('\n').map((line) => `> ${line}`).join('\n');
}

function plain(text: string, max: number): string {
  return quote(text, max).replace(/^> /gm, '').replace(/\n/g, ' ');
}

export function presentPullRequestTitle(input: Pick<PullRequestBodyInput, 'incidentId' | 'incidentTitle'>): string {
  return `fix(${input.incidentId}): ${plain(input.incidentTitle, 180)}`.slice(0, 250);
}

export function presentPullRequestBody(input: PullRequestBodyInput): string {
  const confidence = `${Math.round(Math.min(1, Math.max(0, input.confidence)) * 100)}%`;
  const link = input.incidentUrl && /^https?:\/\//.test(input.incidentUrl) ? `[${input.incidentId}](${input.incidentUrl})` : `\`${input.incidentId}\``;
  const evidence = input.evidence.slice(0, MAX_EVIDENCE).map((e) => `- ${plain(e, 300)}`);
  const sections = [
    `Medic proposes this one-file fix for incident ${link}. It was approved by **${plain(input.approver, 80)}** in Slack; it still needs a human review before merge.`,
    `### Root cause (confidence ${confidence})\n${quote(input.rootCause, 2_000)}`,
    `### The change to \`${plain(input.file, 300)}\`\n${quote(input.explanation, 2_000)}`,
    input.recommendation ? `### Recommendation\n${quote(input.recommendation, 1_000)}` : '',
    evidence.length > 0 ? `### Evidence\n${evidence.join('\n')}${input.evidence.length > MAX_EVIDENCE ? `\n- … and ${input.evidence.length - MAX_EVIDENCE} more in the incident` : ''}` : '',
    `<sub>Opened by Medic. The analysis is model-assisted: verify the root cause against the evidence before merging.</sub>`,
  ];
  return sections.filter(Boolean).join('\n\n').slice(0, MAX_BODY);
}
