import { z } from 'zod';
import { MAX_LOG_PATTERN } from '../../domain/log-line-pattern.js';
import { ErrorEvent } from '../../domain/event.js';
import type { CodeCandidate } from '../../ports/analyst.js';
import type { CodeRepository } from '../../ports/code.js';
import type { LogSource } from '../../ports/log-source.js';
import type { VectorHit } from '../../ports/retrieval.js';
import { explicitName, repoPath } from '../arguments/identifiers.js';
import { defineTool, missing, type AnyToolSpec } from './tool-spec.js';
import { DEFAULT_READ_IDLE_MS, readWithIdleDeadline, STREAM_TIMEOUT_MS } from './stream-deadline.js';
import { ErrorCode, MedicError } from '../../domain/errors.js';

export const DocsSearchArgs = z.strictObject({
  query: z.string().min(1).max(8_000),
  service: explicitName().optional(),
  limit: z.number().int().min(1).max(50),
});
export type DocsSearchArgs = z.infer<typeof DocsSearchArgs>;
export type DocsSearch = (args: DocsSearchArgs) => Promise<VectorHit[]>;

export const CodeSearchArgs = z.strictObject({
  query: z.string().min(1).max(16_000),
  limit: z.number().int().min(1).max(50),
});
export type CodeSearchArgs = z.infer<typeof CodeSearchArgs>;
export type CodeSearch = (args: CodeSearchArgs) => Promise<CodeCandidate[]>;

/** The event a window is fetched around: every field that ends up in a search must be explicit. */
const WindowEvent = ErrorEvent.extend({
  service: explicitName(),
  correlationIds: z.record(z.string(), explicitName()).default({}),
  sessionId: explicitName().optional(),
});

export interface ReadToolDeps {
  logs?: LogSource;
  repo?: CodeRepository;
  searchDocs?: DocsSearch;
  searchCode?: CodeSearch;
}

/** Reads: they change nothing outside Medic, so they run for the pipeline without a human. */
export function createReadTools(deps: ReadToolDeps): AnyToolSpec[] {
  const { logs, repo, searchDocs, searchCode } = deps;
  const read = { effect: 'READ_ONLY', permission: 'read', reversible: true } as const;
  // A read's deadline is its adapter's own timeout, when it has one, not the gateway's default.
  const repoDeadline = repo?.timeoutMs ? { timeoutMs: repo.timeoutMs } : {};
  return [
    defineTool({
      ...read,
      name: 'logs.poll',
      summary: 'Poll the log source for new errors after a checkpoint',
      upstream: 'logs',
      schema: z.strictObject({ checkpoint: z.string().max(4_096).optional() }),
      identifiers: [],
      available: logs !== undefined,
      ...(logs?.timeoutMs ? { timeoutMs: logs.timeoutMs } : {}),
      handler: (args, ctx) => (logs ?? missing('The log source')).poll(args.checkpoint, { signal: ctx.signal }),
    }),
    defineTool({
      ...read,
      name: 'logs.poll-stream',
      summary: 'Poll the log source for new errors after a checkpoint, handing them over as they are read',
      upstream: 'logs',
      schema: z.strictObject({ checkpoint: z.string().max(4_096).optional() }),
      identifiers: [],
      available: logs?.pollStream !== undefined,
      // The caller's ingest paces the stream: the read's own deadline is per part (see stream-deadline.ts).
      timeoutMs: STREAM_TIMEOUT_MS,
      handler: (args, ctx) => {
        const stream = logs?.pollStream?.bind(logs) ?? missing('A streaming log source');
        const sink = ctx.sink;
        if (!sink) throw new MedicError(ErrorCode.ValidationFailed, 'logs.poll-stream needs a sink for the events it reads.');
        return readWithIdleDeadline((onEvents) => stream(args.checkpoint, onEvents), sink, logs?.timeoutMs ?? DEFAULT_READ_IDLE_MS, ctx.signal);
      },
    }),
    defineTool({
      ...read,
      name: 'logs.window',
      summary: 'Fetch the correlated log window around an error',
      upstream: 'logs',
      cacheable: true,
      schema: z.strictObject({
        event: WindowEvent,
        beforeMs: z.number().int().min(0).max(86_400_000),
        afterMs: z.number().int().min(0).max(86_400_000),
        limit: z.number().int().min(1).max(10_000),
      }),
      identifiers: [['event', 'service'], ['event', 'correlationIds', '*'], ['event', 'sessionId']],
      available: logs !== undefined,
      ...(logs?.timeoutMs ? { timeoutMs: logs.timeoutMs } : {}),
      handler: (args, ctx) => (logs ?? missing('The log source')).window(args, { signal: ctx.signal }),
    }),
    defineTool({
      ...read,
      name: 'logs.find-line',
      summary: "Find the first log line of a service since a time containing a deploy marker's text",
      upstream: 'logs',
      schema: z.strictObject({
        service: explicitName(),
        // Literal text (domain/log-line-pattern.ts): never a regular expression.
        pattern: z.string().min(1).max(MAX_LOG_PATTERN),
        since: z.string().datetime({ offset: true }),
      }),
      identifiers: [['service']],
      available: logs?.findLine !== undefined,
      ...(logs?.timeoutMs ? { timeoutMs: logs.timeoutMs } : {}),
      handler: (args, ctx) => {
        const find = logs?.findLine?.bind(logs);
        return find ? find(args.service, args.pattern, args.since, { signal: ctx.signal }) : missing('Finding log lines in the log source');
      },
    }),
    defineTool({
      ...read,
      name: 'docs.search',
      summary: 'Find documented error families similar to this error',
      upstream: 'vectors',
      cacheable: true,
      schema: DocsSearchArgs,
      identifiers: [['service']],
      available: searchDocs !== undefined,
      handler: (args) => (searchDocs ?? missing('The docs search'))(args),
    }),
    defineTool({
      ...read,
      name: 'code.search',
      summary: 'Rank repository files against an error or stack trace',
      upstream: 'repo',
      cacheable: true,
      schema: CodeSearchArgs,
      identifiers: [],
      available: searchCode !== undefined,
      handler: (args) => (searchCode ?? missing('The code search'))(args),
    }),
    defineTool({
      ...read,
      name: 'code.read-file',
      ...repoDeadline,
      summary: "Read one file of Medic's clone of the service repository",
      upstream: 'repo',
      cacheable: true,
      schema: z.strictObject({ path: repoPath() }),
      identifiers: [['path']],
      available: repo !== undefined,
      handler: (args) => (repo ?? missing('The code repository')).readFile(args.path),
    }),
    defineTool({
      ...read,
      name: 'code.list-files',
      ...repoDeadline,
      summary: "List the files of Medic's clone",
      upstream: 'repo',
      cacheable: true,
      schema: z.strictObject({}),
      identifiers: [],
      available: repo !== undefined,
      handler: () => (repo ?? missing('The code repository')).listFiles(),
    }),
    defineTool({
      ...read,
      name: 'git.sync',
      summary: "Fetch the default branch into Medic's own clone (never the operator's)",
      upstream: 'repo',
      // A first clone of a real repository takes far longer than a read's default deadline.
      timeoutMs: 300_000,
      schema: z.strictObject({}),
      identifiers: [],
      available: repo !== undefined,
      handler: () => (repo ?? missing('The code repository')).sync(),
    }),
    defineTool({
      ...read,
      name: 'git.log',
      ...repoDeadline,
      summary: 'Recent commits touching the suspect files',
      upstream: 'repo',
      cacheable: true,
      schema: z.strictObject({
        paths: z.array(repoPath()).max(50),
        sinceDays: z.number().int().min(1).max(3_650),
        limit: z.number().int().min(1).max(200),
        until: z.iso.datetime({ offset: true }).optional(),
      }),
      identifiers: [['paths', '*']],
      available: repo !== undefined,
      handler: (args) => (repo ?? missing('The code repository')).recentChanges(args.paths, args.sinceDays, args.limit, args.until),
    }),
    defineTool({
      ...read,
      name: 'git.blame',
      ...repoDeadline,
      summary: "The commit that last changed a line, or a function, of a file in Medic's clone (follows renames)",
      upstream: 'repo',
      cacheable: true,
      schema: z.strictObject({ path: repoPath(), line: z.number().int().min(1).max(10_000_000).optional(), function: z.string().regex(/^[A-Za-z_$][\w$.#:]{0,200}$/).optional() }).refine((a) => (a.line === undefined) !== (a.function === undefined), { message: 'give exactly one of line and function' }),
      identifiers: [['path']],
      available: repo !== undefined,
      handler: (args) => {
        const r = repo ?? missing('The code repository');
        return args.line !== undefined ? r.blame(args.path, args.line) : r.blameFunction(args.path, args.function ?? '');
      },
    }),
    defineTool({
      ...read,
      name: 'git.commit-file',
      ...repoDeadline,
      summary: "One file just before and after a commit, in Medic's clone",
      upstream: 'repo',
      cacheable: true,
      schema: z.strictObject({ sha: explicitName(), path: repoPath() }),
      identifiers: [['sha'], ['path']],
      available: repo !== undefined,
      handler: (args) => (repo ?? missing('The code repository')).commitFileChange(args.sha, args.path),
    }),
  ];
}
