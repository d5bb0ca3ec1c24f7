/**
 * Prompt tokens per step (rca, recommend, fix) for the sample incidents in data/logs, and the RCA
 * prompt for a 200-line storm window. Tokens are estimated at 4 characters per token plus 4 per
 * message (src/domain/untrusted/tokens.ts): no tokenizer is downloaded. The prompts are the real
 * ones, built by the LLM analyst against a scripted model that records what it was sent.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJsonRecord, type FileLogRecord } from '../src/adapters/file-logs/parse-entry.js';
import { createScriptedLlm } from '../src/adapters/scripted-llm/scripted-llm.js';
import { createLlmAnalyst } from '../src/analysts/llm-analyst.js';
import { loadPrompts } from '../src/analysts/prompts.js';
import type { RecentChange, SimilarDoc } from '../src/domain/analysis.js';
import type { ErrorEvent, LogEntry } from '../src/domain/event.js';
import { estimateChatTokens } from '../src/domain/untrusted/tokens.js';
import type { CodeCandidate, RcaInput } from '../src/ports/analyst.js';
import type { BenchReport } from './report.js';

const DATA = 'data';
const WINDOW_MS = 5 * 60_000;
const SYNTHETIC_TRACE = 'RangeError: Invalid discount per item: Infinity\n    at spreadDiscount (/srv/shop/src/checkout/discounts.ts:44:25)';

function readRecords(): FileLogRecord[] {
  const file = join(DATA, 'logs', 'shop.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').flatMap((line, i) => parseJsonRecord(line, `shop.jsonl:${i}`, ['txn_id', 'orderNumber', 'requestId']) ?? []);
}

const toEntry = (r: FileLogRecord, i: number): LogEntry => ({ id: `log-${i}`, time: r.time, level: r.level, service: r.service, message: r.evidence.split('\n')[0] ?? r.message });

function toEvent(r: FileLogRecord): ErrorEvent {
  return { id: r.sourceId, source: 'file', time: r.time, service: r.service, severity: 'error', message: r.message, raw: r.raw, errorCode: r.errorCode, correlationIds: r.correlationIds, fields: r.fields };
}

function readDocs(): { id: string; title: string; body: string }[] {
  const dir = join(DATA, 'docs');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.md')).map((f) => {
    const body = readFileSync(join(dir, f), 'utf8');
    return { id: f.replace(/\.md$/, ''), title: /^# (.*)$/m.exec(body)?.[1] ?? f, body };
  });
}

const words = (text: string) => new Set(text.toLowerCase().split(/[^a-z0-9_]+/).filter((w) => w.length > 2));

/** Word-overlap ranking stands in for the vector store: the bench measures prompts, not retrieval. */
function similarDocs(event: ErrorEvent, docs: ReturnType<typeof readDocs>): SimilarDoc[] {
  const query = words(`${event.errorCode ?? ''} ${event.message}`);
  return docs
    .map((d) => {
      const w = words(d.body);
      const shared = [...query].filter((x) => w.has(x)).length;
      return { id: d.id, title: d.title, excerpt: d.body.slice(0, 700), source: `docs/${d.id}.md`, similarity: Math.min(1, shared / Math.max(1, query.size)) };
    })
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, 5);
}

function recentChanges(): RecentChange[] {
  const file = join(DATA, 'sample-service.history.json');
  if (!existsSync(file)) return [];
  const history = JSON.parse(readFileSync(file, 'utf8')) as { commits: { message: string; author: string; files: string[] }[] };
  return history.commits.slice(-3).map((c, i) => ({ sha: `c0ffee${i}0000`, author: c.author, date: '2026-11-29', subject: c.message.split('\n')[0] ?? '', files: c.files }));
}

function candidates(event: ErrorEvent): CodeCandidate[] {
  const paths = [...event.raw.matchAll(/\/srv\/shop\/(src\/[\w/.-]+\.ts)/g)].map((m) => m[1] ?? '');
  return [...new Set(paths)].slice(0, 3).flatMap((path, i) => {
    const file = join(DATA, 'sample-service', path);
    return existsSync(file) ? [{ file: path, content: readFileSync(file, 'utf8'), score: 1 - i * 0.2 }] : [];
  });
}

/** 200 lines of a storm: the failing line repeated with fresh ids, around real traffic. */
function stormWindow(records: FileLogRecord[], event: ErrorEvent): LogEntry[] {
  const traffic = records.slice(0, 60).map((r) => r.raw.split('\n')[0] ?? r.message);
  const lines = Array.from({ length: 200 }, (_, i) =>
    i % 10 < 7 ? `${event.message} requestId=req-${(0x1000 + i).toString(16)} orderNumber=SO-${1000 + i}` : (traffic[i % traffic.length] ?? 'GET /health 200'),
  );
  return lines.map((message, i) => ({ id: `log-${i}`, time: new Date(Date.parse(event.time) - 100_000 + i * 1_000).toISOString(), level: i % 10 < 7 ? 'ERROR' : 'INFO', service: 'shop', message }));
}

/** The worst case for compaction: 200 lines that share nothing. */
function distinctWindow(event: ErrorEvent): LogEntry[] {
  const verbs = ['reserved', 'priced', 'shipped', 'refunded', 'queued', 'retried', 'cached', 'validated'];
  return Array.from({ length: 200 }, (_, i) => ({
    id: `log-${i}`,
    time: new Date(Date.parse(event.time) - 100_000 + i * 1_000).toISOString(),
    level: 'INFO',
    service: 'shop',
    message: `order ${verbs[i % 8]} for customer cust-${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + ((i * 7) % 26))} in warehouse ${verbs[(i * 3) % 8]}-${String.fromCharCode(65 + (i % 26))} via ${['dhl', 'ups', 'fedex', 'post'][i % 4]}`,
  }));
}

async function measure(input: RcaInput, cands: CodeCandidate[]): Promise<Record<'rca' | 'recommend' | 'fix', number>> {
  const llm = createScriptedLlm({
    rca: [{ rootCause: 'Bench cause', contributingFactors: [], evidenceIds: ['log-0', input.similarDocs[0]?.id ?? 'event'], impactedComponent: 'shop', severity: 'error', confidence: 0.8, summary: 's', sequenceOfEvents: [] }],
    recommend: [{ kind: 'fix', summary: 'Guard the division.', steps: ['Add a guard'], risk: 'low' }],
    fix: [{ file: null, newContent: null, explanation: 'bench' }],
  });
  const analyst = createLlmAnalyst({ llm, prompts: loadPrompts() });
  const { rca } = await analyst.rca(input);
  const { recommendation } = await analyst.recommend(rca);
  await analyst.proposeFix({ event: input.event, rca, recommendation, candidates: cands });
  const tokens = { rca: 0, recommend: 0, fix: 0 };
  for (const call of llm.calls()) tokens[call.step as keyof typeof tokens] = estimateChatTokens([{ content: call.system }, { content: call.user }]);
  return tokens;
}

export default async function tokensBench(): Promise<BenchReport> {
  const records = readRecords();
  const docs = readDocs();
  const changes = recentChanges();
  const errors = records.filter((r) => r.level === 'ERROR' && r.errorCode);
  const firstPerCode = [...new Map(errors.map((r) => [r.errorCode, r] as const)).values()].reverse();
  const rows: (string | number)[][] = [];
  const samples: { incident: string; lines: number; rca: number; recommend: number; fix: number }[] = [];
  for (const record of firstPerCode) {
    const event = toEvent(record);
    const at = Date.parse(event.time);
    const window = records.filter((r) => Math.abs(Date.parse(r.time) - at) <= WINDOW_MS).slice(0, 200).map(toEntry);
    const input: RcaInput = { event, title: event.message.slice(0, 120), logs: { entries: window, from: new Date(at - WINDOW_MS).toISOString(), to: new Date(at + WINDOW_MS).toISOString() }, similarDocs: similarDocs(event, docs), recentChanges: changes };
    const tokens = await measure(input, candidates(event));
    samples.push({ incident: event.errorCode ?? event.id, lines: window.length, ...tokens });
    rows.push([event.errorCode ?? event.id, window.length, tokens.rca, tokens.recommend, tokens.fix]);
  }
  const base = samples.length > 0 ? toEvent(firstPerCode[0] as FileLogRecord) : toEvent({ sourceId: 'synthetic', time: '2026-11-30T09:00:00.000Z', level: 'ERROR', service: 'shop', message: 'RangeError: Invalid discount per item: Infinity', raw: SYNTHETIC_TRACE, evidence: SYNTHETIC_TRACE, correlationIds: {}, fields: {} });
  const stormInput = (entries: LogEntry[]): RcaInput => ({ event: base, title: base.message.slice(0, 120), logs: { entries, from: entries[0]?.time ?? '', to: entries.at(-1)?.time ?? '' }, similarDocs: similarDocs(base, docs), recentChanges: changes });
  const storm = await measure(stormInput(stormWindow(records, base)), []);
  const distinct = await measure(stormInput(distinctWindow(base)), []);
  rows.push(['storm (200 lines)', 200, storm.rca, storm.recommend, '-'], ['200 distinct lines', 200, distinct.rca, distinct.recommend, '-']);

  // An incident without a stack trace has no candidate file, so no fix prompt: leave it out of the fix average.
  const avg = (key: 'rca' | 'recommend' | 'fix') => {
    const values = samples.map((s) => s[key]).filter((v) => v > 0);
    return values.length ? Math.round(values.reduce((a, b) => a + b, 0) / values.length) : 0;
  };
  return {
    headline: {
      rca_prompt_tokens_200_lines: storm.rca,
      rca_prompt_tokens_200_distinct_lines: distinct.rca,
      rca_prompt_tokens_sample_avg: avg('rca'),
      rca_prompt_tokens_sample_max: Math.max(0, ...samples.map((s) => s.rca)),
      recommend_prompt_tokens_sample_avg: avg('recommend'),
      fix_prompt_tokens_sample_avg: avg('fix'),
      sample_incidents: samples.length,
    },
    table: { columns: ['incident', 'window lines', 'rca tokens', 'recommend tokens', 'fix tokens'], rows },
    detail: { tokenizer: '4 characters per token + 4 per message (estimateChatTokens); errs low by ~10-30% on log text', samples, storm, distinct },
  };
}
