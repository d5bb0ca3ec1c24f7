import { mkdir } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import type { Redis } from 'ioredis';
import { createConsoleChat } from '../adapters/console-chat/console-chat.js';
import { createLocalEmbedder } from '../adapters/embedding/local-embedder.js';
import { createFileLogSource } from '../adapters/file-logs/file-log-source.js';
import { createSplunkLogSource } from '../adapters/splunk/splunk-log-source.js';
import { splunkOptionsFromEnv } from '../adapters/splunk/options-from-env.js';
import { createMemoryVectorStore } from '../adapters/vector/memory-vector-store.js';
import { DEFAULT_FIX_LIMITS, validateFix } from '../analysts/validate-fix.js';
import { searchCode } from '../code-search/search-code.js';
import type { Config } from '../config/schema.js';
import { createConfiguredAuthority } from '../gateway/authority.js';
import type { Logger } from '../observability/logger.js';
import type { LogSource } from '../ports/log-source.js';
import { findRecentChanges } from '../retrieval/find-recent-changes.js';
import { findSimilarDocs } from '../retrieval/find-similar-docs.js';
import { ingestDocs } from '../retrieval/ingest-docs.js';
import { seedSampleRemote } from '../sample/seed-sample-remote.js';
import type { Adapters } from './adapters.js';
import { createAnalystFactory } from './create-analyst.js';
import { createCodeHost } from './create-code-host.js';
import { medicPaths } from './paths.js';

export interface AdapterContext {
  config: Config;
  redis: Redis;
  logger: Logger;
  chatOut: Writable;
}

/**
 * Chooses the adapter behind each port from configuration alone: a real service when it is
 * configured, the embedded default otherwise (files, console chat, offline analyst, local
 * embedder and index, a local bare remote seeded from the sample service, no PRs).
 */
export async function createAdapters({ config, redis, logger, chatOut }: AdapterContext): Promise<Adapters> {
  const paths = medicPaths(config);
  const onInvalid = (sourceId: string, reason: string) => logger.warn({ sourceId, reason }, 'skipped a log record');
  const splunk = splunkOptionsFromEnv(config, { correlationFields: config.MEDIC_CORRELATION_FIELDS, onInvalid });
  const logs: LogSource = splunk
    ? createSplunkLogSource(splunk)
    : createFileLogSource({ dir: paths.logs, correlationFields: config.MEDIC_CORRELATION_FIELDS, onInvalid });

  const { repo, unlockedRepo, publisher, pullRequests, withDataLock } = createCodeHost({ config, redis, logger, paths });

  const embedder = createLocalEmbedder();
  const store = createMemoryVectorStore({ file: paths.vectors });
  const retrieval = { embedder, store };

  const chat = createConsoleChat({ redis, prefix: config.MEDIC_REDIS_PREFIX, out: chatOut, channel: config.MEDIC_SLACK_CHANNEL });
  const authority = createConfiguredAuthority({ approvers: config.MEDIC_APPROVERS, elevatedApprovers: [] });
  const analystFor = createAnalystFactory({ config, redis, logger });

  return {
    logs, chat, repo, publisher, pullRequests, authority, analystFor,
    findSimilarDocs: ({ event, template, limit }) => findSimilarDocs(retrieval, { event, template, limit }),
    findRecentChanges: ({ event, candidates, sinceDays }) => findRecentChanges(repo, { event, candidates, sinceDays, limit: 10 }),
    searchCode: ({ incident }) =>
      searchCode(repo, {
        text: `${incident.firstEvent.message}\n${incident.firstEvent.raw}`, impactedComponent: incident.rca?.impactedComponent, evidence: incident.rca?.rootCause,
        languages: config.MEDIC_CODE_LANGUAGES.length > 0 ? config.MEDIC_CODE_LANGUAGES : undefined, globs: config.MEDIC_CODE_GLOBS, maxBytes: config.MEDIC_CODE_MAX_BYTES,
      }),
    validateFix: (draft, candidates) => {
      const result = validateFix({ file: draft.file, newContent: draft.after, explanation: draft.explanation }, candidates, { ...DEFAULT_FIX_LIMITS, maxChangedLines: config.MEDIC_FIX_MAX_LINES });
      return result.ok ? result.proposal : result.reason;
    },
    prepare: () => withDataLock(async () => {
      if (!config.MEDIC_REPO_REMOTE) {
        const seeded = await seedSampleRemote({ sourceDir: paths.sampleService, historyFile: paths.sampleHistory, remoteDir: paths.sampleRemote, branch: config.MEDIC_REPO_BRANCH });
        if (seeded.created) logger.info({ remote: seeded.remoteDir }, 'seeded the sample service remote');
      }
      await mkdir(paths.worktrees, { recursive: true });
      await unlockedRepo.sync();
      await store.ensure(embedder.id, embedder.dimension);
      const report = await ingestDocs(retrieval, { dir: paths.docs });
      logger.info({ ...report }, 'documents indexed');
    }),
    checks: [logs, chat, repo, publisher, pullRequests, store],
  };
}
