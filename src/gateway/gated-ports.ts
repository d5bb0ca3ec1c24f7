import { ErrorCode, MedicError } from '../domain/errors.js';
import type { ErrorEvent, RawLogLine } from '../domain/event.js';
import type { CardRef } from '../domain/incident.js';
import type { CodeCandidate } from '../ports/analyst.js';
import type { Chat } from '../ports/chat.js';
import type { ChecksState, CodeRepository, DeployMarker, FixPublisher, FixRef, MergeState, PublishResult, PullRequests } from '../ports/code.js';
import type { LogLineHit, LogSource, PollResult } from '../ports/log-source.js';
import type { VectorHit } from '../ports/retrieval.js';
import type { InvocationContext } from './registry/effect.js';
import type { ToolGateway } from './gateway.js';
import type { InvokeResult } from './invoke-result.js';
import type { CodeSearchArgs, DocsSearchArgs } from './registry/read-tools.js';

export interface PlainPorts {
  logs?: LogSource;
  chat?: Chat;
  repo?: CodeRepository;
  publisher?: FixPublisher;
  pullRequests?: PullRequests;
}

export interface GatedPorts {
  logs?: LogSource;
  chat?: Chat;
  repo?: CodeRepository;
  publisher?: FixPublisher;
  pullRequests?: PullRequests;
  searchDocs(args: DocsSearchArgs): Promise<VectorHit[]>;
  searchCode(args: CodeSearchArgs): Promise<CodeCandidate[]>;
}

/** A call that did not execute becomes a coded error, so callers written against plain ports fail loudly. */
export function unwrapResult(tool: string, result: InvokeResult): unknown {
  switch (result.status) {
    case 'executed':
      return result.value;
    case 'failed':
      throw result.error;
    case 'proposed':
      throw new MedicError(ErrorCode.ToolDenied, `${tool} was not run: ${result.reason}.`);
    case 'denied':
      throw new MedicError(result.code, `${tool} was refused: ${result.reason}.`, { transient: result.code === ErrorCode.UpstreamUnavailable || result.code === ErrorCode.Conflict });
  }
}

/**
 * The same port interfaces, but every method is a gateway call: the pipeline and the jobs, written
 * against plain ports, go through the registry, the gate and the audit by wiring alone. `check()`
 * and `name` pass straight through: a health probe is not an action on anyone's system.
 */
export function createGatedPorts(gateway: ToolGateway, ports: PlainPorts, context: InvocationContext): GatedPorts {
  const call = async <T>(tool: string, args: unknown): Promise<T> => unwrapResult(tool, await gateway.invoke({ tool, args }, context)) as T;
  const { logs, chat, repo, publisher, pullRequests } = ports;
  return {
    logs: logs && {
      name: logs.name,
      check: () => logs.check(),
      poll: (checkpoint) => call<PollResult>('logs.poll', checkpoint === undefined ? {} : { checkpoint }),
      // One audited call for the whole stream; its events reach the caller as they are read.
      ...(logs.pollStream ? {
        pollStream: async (checkpoint: string | undefined, onEvents: (events: ErrorEvent[]) => Promise<void>) => unwrapResult('logs.poll-stream', await gateway.invoke(
          { tool: 'logs.poll-stream', args: checkpoint === undefined ? {} : { checkpoint } },
          { ...context, sink: (items) => onEvents(items as ErrorEvent[]) },
        )) as { checkpoint: string; events: number },
      } : {}),
      window: (query) => call<RawLogLine[]>('logs.window', query),
      ...(logs.findLine ? { findLine: (service: string, pattern: string, since: string) => call<LogLineHit | undefined>('logs.find-line', { service, pattern, since }) } : {}),
    },
    chat: chat && {
      check: () => chat.check(),
      postCard: (key, message, channel) => call<CardRef>('slack.post-card', channel === undefined ? { key, message } : { key, message, channel }),
      updateCard: (ref, message) => call<undefined>('slack.update-card', { ref, message }),
      replyInThread: (ref, key, message) => call<undefined>('slack.reply', { ref, key, message }),
      postEphemeral: (channel, userId, text) => call<undefined>('slack.ephemeral', { channel, userId, text }),
    },
    repo: repo && {
      check: () => repo.check(),
      sync: () => call<undefined>('git.sync', {}),
      listFiles: () => call<string[]>('code.list-files', {}),
      readFile: (path) => call<string | undefined>('code.read-file', { path }),
      recentChanges: (paths, sinceDays, limit, until) => call('git.log', until === undefined ? { paths, sinceDays, limit } : { paths, sinceDays, limit, until }),
      blame: (path, line) => call('git.blame', { path, line }),
      blameFunction: (path, fn) => call('git.blame', { path, function: fn }),
      commitFileChange: (sha, path) => call('git.commit-file', { sha, path }),
    },
    publisher: publisher && {
      check: () => publisher.check(),
      publish: (input) => call<PublishResult>('git.publish-fix', input),
    },
    pullRequests: pullRequests && {
      check: () => pullRequests.check(),
      open: (input) => call('github.open-pr', input),
      ...(pullRequests.checks ? { checks: (branch: string) => call<ChecksState>('github.checks', { branch }) } : {}),
      ...(pullRequests.mergeState ? { mergeState: (fix: FixRef) => call<MergeState>('github.merge-state', fix.pullNumber === undefined ? { branch: fix.branch } : { branch: fix.branch, pullNumber: fix.pullNumber }) } : {}),
      ...(pullRequests.deployment
        ? {
            deployment: (commit: string, since: string, kind: 'github-deployment' | 'github-release', environment?: string) =>
              call<DeployMarker | undefined>('github.deployment', environment === undefined ? { commit, since, kind } : { commit, since, kind, environment }),
          }
        : {}),
    },
    searchDocs: (args) => call<VectorHit[]>('docs.search', args),
    searchCode: (args) => call<CodeCandidate[]>('code.search', args),
  };
}
