/**
 * Builds what the RCA model is shown: every untrusted part redacted, compacted to its own token
 * budget and fenced with this call's nonce. Returns the ids it showed, which are the only ones the
 * answer may cite, and the text itself, which the pipeline keeps for audit.
 */
import { prepareLines, prepareText } from '../domain/untrusted/prepare.js';
import { estimateTokens } from '../domain/untrusted/tokens.js';
import type { RcaInput } from '../ports/analyst.js';
import { presentReviewForModel } from './review-context.js';

export interface RcaContextBudget {
  eventTokens: number;
  logTokens: number;
  docTokens: number;
  changeTokens: number;
  maxLineChars: number;
}

/** Sized so the whole RCA prompt stays under ~4,000 tokens with a 200-line storm window. */
export const DEFAULT_RCA_CONTEXT: RcaContextBudget = { eventTokens: 450, logTokens: 2_000, docTokens: 550, changeTokens: 200, maxLineChars: 240 };

export interface RcaContext {
  user: string;
  allowedIds: Set<string>;
  docIds: Set<string>;
  tokens: number;
}

const ERROR_LEVEL = /^(error|err|fatal|critical|crit|severe|panic|emerg|alert)$/i;

export function buildRcaContext(input: RcaInput, nonce: string, budget: RcaContextBudget = DEFAULT_RCA_CONTEXT): RcaContext {
  const { event, logs, similarDocs, recentChanges } = input;
  const eventText = [
    `title: ${input.title}`,
    `service: ${event.service}`,
    `severity: ${event.severity}`,
    `time: ${event.time}`,
    event.errorCode ? `errorCode: ${event.errorCode}` : '',
    `message: ${event.message}`,
    event.raw && event.raw !== event.message ? `raw:\n${event.raw}` : '',
  ].filter(Boolean).join('\n');
  const eventSection = prepareText(eventText, { label: 'event', nonce, maxTokens: budget.eventTokens });

  // The event's own line and error-level lines survive the budget first.
  const focus = Math.max(0, logs.entries.findIndex((e) => e.message === event.message));
  const logSection = prepareLines(
    logs.entries.map((e) => ({
      id: e.id,
      text: `${e.time} ${e.level} ${e.service} ${e.message}`,
      priority: (ERROR_LEVEL.test(e.level) ? 1 : 0) + (e.message === event.message ? 1 : 0),
    })),
    { label: 'logs', nonce, maxTokens: budget.logTokens, maxLineChars: budget.maxLineChars, focus },
  );

  const perDoc = Math.max(40, Math.floor(budget.docTokens / Math.max(1, similarDocs.length)));
  const docText = similarDocs
    .map((d) => `[${d.id}] ${d.title} (similarity ${d.similarity.toFixed(2)}, ${d.source})\n${d.excerpt.slice(0, perDoc * 4)}`)
    .join('\n\n');
  const docSection = prepareText(docText || '(none found)', { label: 'docs', nonce, maxTokens: budget.docTokens });
  // Suspects lead: blame says they changed the very lines that failed.
  const suspectText = (input.suspectCommits ?? [])
    .map((s) => `suspect ${s.sha.slice(0, 10)} ${s.date} ${s.author}: ${s.subject} [last changed ${s.file}:${s.line}${s.function ? ` (${s.function})` : ''}, ${s.ageDays} day(s) before the error]`)
    .join('\n');
  const changeText = [
    suspectText,
    ...recentChanges.map((c) => `${c.sha.slice(0, 10)} ${c.date} ${c.author}: ${c.subject} [${c.files.slice(0, 5).join(', ')}]`),
  ].filter(Boolean).join('\n');
  const changeSection = prepareText(changeText || '(none)', { label: 'changes', nonce, maxTokens: budget.changeTokens });

  // The note quotes the log source (a truncation, an upstream error): untrusted like the lines.
  const noteSection = logs.note ? prepareText(logs.note, { label: 'log-note', nonce, maxTokens: 120 }) : undefined;
  const user = [
    `This request's fence nonce is ${nonce}.`,
    'Error event (cite as `event`):',
    eventSection.fenced,
    `Log window ${logs.from} → ${logs.to}: ${logs.entries.length} line(s), ${logSection.omittedLines} omitted or folded${noteSection ? '; the log source noted:' : ''}. Cite lines by their log-N id.`,
    ...(noteSection ? [noteSection.fenced] : []),
    logSection.fenced,
    'Documented error families that look similar (cite by the id in brackets):',
    docSection.fenced,
    'Suspect commits (the last change to each failing line) and recent changes to the suspected files:',
    changeSection.fenced,
    ...presentReviewForModel(input.review, nonce),
  ].join('\n\n');

  const docIds = new Set(similarDocs.map((d) => d.id));
  return { user, allowedIds: new Set(['event', ...logSection.shownIds, ...docIds]), docIds, tokens: estimateTokens(user) };
}
