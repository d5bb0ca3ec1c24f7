import pLimit from 'p-limit';
import { mkdir } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import type { RedisClient } from '../adapters/redis/connect.js';
import { createConsoleChat } from '../adapters/console-chat/console-chat.js';
import { mirrorToConsole } from '../adapters/console-chat/mirror-chat.js';
import { createAuditLog } from '../adapters/redis/audit-log.js';
import { createSlackChat } from '../adapters/slack/slack-chat.js';
import { createSlackUserGroups } from '../adapters/slack/slack-user-groups.js';
import { createSlackWebClient } from '../adapters/slack/web-client.js';
import { createRedisCallPacer } from '../adapters/redis/slack-pacer.js';
import { createRedisPostLedger } from '../adapters/redis/post-ledger.js';
import { createRedisCardVersions } from '../adapters/redis/card-delivery-state.js';
import type { Metrics } from '../observability/metrics.js';
import { validateFix } from '../analysts/validate-fix.js';
import { boostRecentSuspects } from '../code-search/suspect-boost.js';
import { createCodeSearch } from '../code-search/search-code.js';
import { findFailingLines } from '../retrieval/failing-lines.js';
import { findRevert } from '../retrieval/find-revert.js';
import { findSuspectCommits } from '../retrieval/find-suspect-commits.js';
import type { Config } from '../config/schema.js';
import { ErrorCode, MedicError } from '../domain/errors.js';
import { createGatewayStack } from '../gateway/create-gateway.js';
import { loadGroupingRules } from '../config/load-grouping-rules.js';
import { createIncidentGrouping } from '../adapters/redis/open-from-overflow.js';
import { describeActionCatalog } from '../gateway/actions/action-catalog.js';
import { createDocsSearch } from '../gateway/registry/docs-search.js';
import { createGatedPorts, unwrapResult } from '../gateway/gated-ports.js';
import type { ProposalCheck } from '../domain/proposal-check.js';
import { createPipelineContext } from '../gateway/invocation-scope.js';
import { loadPolicy } from '../gateway/actions/policy.js';
import { proposeActions } from '../gateway/actions/propose-actions.js';
import type { Logger } from '../observability/logger.js';
import type { Chat } from '../ports/chat.js';
import type { ServiceCatalog } from '../ports/service-catalog.js';
import { findRecentChanges } from '../retrieval/find-recent-changes.js';
import { similarDocsQuery, toSimilarDoc } from '../retrieval/find-similar-docs.js';
import { ingestDocs } from '../retrieval/ingest-docs.js';
import { upsertIncidentDoc } from '../retrieval/incident-to-doc.js';
import { seedSampleRemote } from '../sample/seed-sample-remote.js';
import type { Adapters } from './adapters.js';
import { approverIds, chatMode, elevatedIds, type SlackSettings } from './chat-mode.js';
import { createAnalystFactory, createModel, modelDeadlineMs } from './create-analyst.js';
import { createGatedLlm } from '../gateway/gated-llm.js';
import { MODEL_ANSWERS } from '../analysts/answers.js';
import type { Llm } from '../ports/llm.js';
import { createCodeHost } from './create-code-host.js';
import { remoteOf } from './repository-dirs.js';
import { createServiceCatalog } from './create-service-catalog.js';
import { createRoutedCodeHost } from './routed-code-host.js';
import { createServiceLookup } from './service-lookup.js';
import { createCatalogCheck, createChannelsCheck, startCatalogWatch } from './catalog-watch.js';
import { createIncidentStore } from '../adapters/redis/incident-store.js';
import { withRedisLock } from '../adapters/redis/redis-lock.js';
import { createCatalogAuthority } from '../gateway/authority/catalog-authority.js';
import { allowsAction, incidentRouteOf } from '../domain/catalog/resolve-service.js';
import { createEmbedderCheck, createSandboxCheck } from './service-checks.js';
import { createProposalChecksCheck } from './proposal-checks-doctor.js';
import { createCellLayoutCheck } from '../adapters/redis/cell-layout.js';
import { detectIsolation } from '../adapters/git/run-check.js';
import { createLogSource } from './create-log-source.js';
import { createRetrieval } from './create-retrieval.js';
import { medicPaths } from './paths.js';
import { cellPrefixes } from '../domain/cells.js';
import { createCellLocator } from '../adapters/redis/cell-locator.js';
import { routeGroupingPort } from './cells/routed-commands.js';

export interface AdapterContext {
  config: Config;
  redis: RedisClient;
  logger: Logger;
  chatOut: Writable;
  /** Print whole cards in the terminal mirror, not one line per card event (`npm start -- --verbose`). */
  verboseChat?: boolean;
  /** Slack settings when the chat is Slack or the sandbox (decided once, shared with the web role). */
  slack?: SlackSettings;
  /** The service catalog, when the caller read it already (the sandbox opens its channels). */
  catalog?: ServiceCatalog;
  /** Counts the card updates the chat adapter skips as stale. */
  metrics?: Metrics;
}

/**
 * Chooses the adapter behind each port from configuration alone — a real service when it is
 * configured, the embedded default otherwise — and puts every port the pipeline uses behind the
 * tool gateway, so each action is registered, checked, gated and audited.
 */
export async function createAdapters({ config, redis, logger, chatOut, slack, verboseChat, catalog: given, metrics }: AdapterContext): Promise<Adapters> {
  const paths = medicPaths(config);
  const prefix = config.MEDIC_REDIS_PREFIX;
  // What names an incident reads and writes in the incident's own cell (one cell: the prefix itself).
  const cells = cellPrefixes(prefix, config.MEDIC_REDIS_CELLS);
  const locator = createCellLocator(redis, cells);
  const cellStores = cells.map((p) => createIncidentStore(redis, p));
  const grouping = routeGroupingPort(cells.map((p) => createIncidentGrouping(redis, p)), locator);
  const logs = createLogSource(config, paths, logger);
  const catalog = given ?? (await createServiceCatalog(config, paths));
  const scope = createPipelineContext();
  const checkSlots = pLimit(config.MEDIC_CHECK_CONCURRENCY);
  const routed = createRoutedCodeHost({
    catalog,
    hostFor: (repository) => createCodeHost({ config, redis, logger, paths, repository, checkSlots }),
    currentIncident: () => scope.incidentId,
    serviceOf: createServiceLookup({ get: async (id) => cellStores[(await locator.cellOf(id)) ?? 0]!.get(id) }),
    logger,
  });
  const { repo, unlockedRepo, publisher, pullRequests } = routed;
  // Work on the data directory as a whole (docs, seeding) takes the historic data lock.
  const withDataLock = <T>(fn: () => Promise<T>) => withRedisLock(redis, `${prefix}lock:data:${paths.data}`, fn);
  const { embedder, store } = await createRetrieval(config, paths);

  const mode = chatMode(config);
  // No client retries: the card delivery job owns them, with the pacer (one retry policy for Slack).
  const slackClient = slack && createSlackWebClient({ token: slack.botToken, apiUrl: slack.apiUrl, retries: 0, timeoutMs: config.SLACK_TIMEOUT_MS });
  const slackChat = slackClient && createSlackChat({
    client: slackClient, channel: catalog.current().defaultChannel,
    // Slack's per-channel limit is Slack's: the loopback sandbox takes calls as fast as they come.
    pacer: createRedisCallPacer(redis, prefix, { callsPerSecond: mode === 'sandbox' ? 100 : config.MEDIC_SLACK_CALLS_PER_S }),
    versions: createRedisCardVersions(redis, prefix), posts: createRedisPostLedger(redis, prefix), lateWindowMs: 2 * config.SLACK_TIMEOUT_MS,
    onStale: () => metrics?.slackStaleUpdates.inc(),
  });
  const chat: Chat = slackChat
    ? mode === 'sandbox'
      ? mirrorToConsole(slackChat, chatOut, { verbose: verboseChat })
      : slackChat
    : createConsoleChat({ redis, prefix, out: chatOut, channel: catalog.current().defaultChannel });
  const authority = createCatalogAuthority({
    routeOf: (incidentId) => routed.routeOf(incidentId),
    routeOfService: (service) => catalog.route(service),
    approvers: approverIds(config),
    elevatedApprovers: elevatedIds(config),
    readers: config.MEDIC_READERS,
    groupCacheMs: config.MEDIC_GROUP_CACHE_MS,
    userGroups: slackClient && createSlackUserGroups(slackClient),
  });

  const candidateRules = {
    globs: config.MEDIC_CODE_GLOBS, languages: config.MEDIC_CODE_LANGUAGES.length > 0 ? config.MEDIC_CODE_LANGUAGES : undefined,
    testGlobs: config.MEDIC_CODE_TEST_GLOBS, allowProtected: config.MEDIC_FIX_ALLOW_PROTECTED, policyFile: config.MEDIC_POLICY_FILE,
  };
  // One index per repository revision, shared by every incident searched against it.
  const indexedSearch = createCodeSearch(unlockedRepo, { maxBytes: config.MEDIC_CODE_MAX_BYTES, ...candidateRules });
  const codeSearch = (args: { query: string; limit: number }) => indexedSearch({ text: args.query, record: true, limit: args.limit });
  const actions = await loadPolicy(config.MEDIC_POLICY_FILE);
  const groupingRules = await loadGroupingRules(config.MEDIC_GROUPING_FILE);
  const llm = createModel(config);
  const { gateway, approvals } = createGatewayStack({
    redis, prefix, authority, audit: createAuditLog(redis, prefix, { maxLen: config.MEDIC_AUDIT_MAXLEN }), actions,
    // A degraded read served from the cache comes from the same repository the call would read.
    cacheScope: async (ctx) => {
      const route = await routed.routeOf(ctx.incidentId);
      return route.known && route.repository ? route.repository.id : '-';
    },
    config: { ...config, MEDIC_APPROVERS: approverIds(config), MEDIC_ELEVATED_APPROVERS: elevatedIds(config) },
    ports: { logs, chat, repo, publisher, pullRequests, checkProposal: routed.checkProposal, searchDocs: createDocsSearch({ embedder, vectors: store }), searchCode: codeSearch, grouping, ...(llm ? { model: { llm, answers: MODEL_ANSWERS, deadlineMs: modelDeadlineMs(config) } } : {}) },
  });
  const gated = createGatedPorts(gateway, { logs, chat, repo, publisher, pullRequests }, scope);
  const audit = createAuditLog(redis, prefix);
  const watch = startCatalogWatch({ catalog, intervalMs: config.MEDIC_CATALOG_POLL_MS, logger, audit });
  const gatedRepo = gated.repo ?? repo;

  const analyst = createAnalystFactory({
    config, redis, logger, actionCatalog: describeActionCatalog(actions.filter((a) => gateway.registry.get(a.name)?.available)),
    ...(llm ? { llm, gate: (model: Llm) => createGatedLlm(gateway, model, scope) } : {}),
  });
  return {
    logs: gated.logs ?? logs, chat: gated.chat ?? chat, repo: gatedRepo, publisher: gated.publisher ?? publisher, pullRequests: gated.pullRequests ?? pullRequests,
    authority, approvals, gateway, groupingRules, catalog,
    routeFor: (service) => incidentRouteOf(catalog.route(service)),
    slack: slack && { ...slack, client: slackClient, sandbox: mode === 'sandbox' },
    // The model is shown only the actions the operator's automation can run here.
    analystFor: analyst.analystFor,
    runDiagnostics: async ({ incidentId, intents, notes }) => {
      // The catalog may narrow the policy's actions per service; the rest are noted, never offered.
      const route = await routed.routeOf(incidentId);
      const allowed = intents.filter((i) => allowsAction(route, i.tool));
      const dropped = intents.filter((i) => !allowsAction(route, i.tool)).map((i) => `${i.tool} is not allowed on this service by the service catalog`);
      return proposeActions({ gateway, intents: allowed, notes: [...notes, ...dropped], incidentId, at: new Date().toISOString() });
    },
    async findSimilarDocs({ event, template, limit }) {
      const held = await store.count();
      if (held === 0) return [];
      const hits = await gated.searchDocs({ query: similarDocsQuery(event, template), limit: Math.min(limit, held) });
      return hits.map(toSimilarDoc);
    },
    findRecentChanges: ({ event, candidates, sinceDays }) => findRecentChanges(gatedRepo, { event, candidates, sinceDays, limit: 10 }),
    searchCode: async ({ incident }) =>
      boostRecentSuspects(
        await gated.searchCode({ query: [incident.firstEvent.raw || incident.firstEvent.message, incident.rca?.impactedComponent, incident.rca?.rootCause].filter(Boolean).join('\n').slice(0, 16_000), limit: 5 }),
        incident.suspectCommits ?? [],
        config.MEDIC_RECENT_CHANGES_DAYS,
      ),
    findSuspectCommits: ({ event }) => findSuspectCommits(gatedRepo, { event, rules: candidateRules }),
    findRevert: async ({ suspects, maxAgeDays, event }) =>
      findRevert(gatedRepo, suspects, { maxAgeDays, ...(event ? { failingLines: await findFailingLines(gatedRepo, { text: event.raw || event.message, record: true, rules: candidateRules }) } : {}) }),
    // Through the gateway (code.check-proposal, audited); the command is read from the catalog there.
    checkProposal: async (input) => unwrapResult('code.check-proposal', await gateway.invoke({ tool: 'code.check-proposal', args: input }, scope)) as ProposalCheck,
    validateFix: (draft, candidates) => {
      const result = validateFix({ file: draft.file, newContent: draft.after, explanation: draft.explanation }, candidates, { maxFileBytes: config.MEDIC_FIX_MAX_FILE_BYTES, maxChangedLines: config.MEDIC_FIX_MAX_LINES, allowProtected: config.MEDIC_FIX_ALLOW_PROTECTED, policyFile: config.MEDIC_POLICY_FILE });
      return result.ok ? result.proposal : result.reason;
    },
    degradedNotice: () => gateway.degradedNotice(),
    async learnFrom(incident) {
      const votes = incident.feedback.filter((f) => f.target === 'rca');
      const rootCauseCorrect = votes.length === 0 ? undefined : votes.filter((v) => v.vote === 'up').length >= votes.length / 2;
      await upsertIncidentDoc({ embedder, store }, incident, { rootCauseCorrect, note: incident.decision?.reason });
    },
    prepare: async () => {
      await withDataLock(async () => {
        // Every catalog repository without a remote of its own is seeded from its sample directory.
        for (const repository of catalog.current().repositories) {
          if (repository.remote || !repository.seedFrom) continue;
          const seeded = await seedSampleRemote({ sourceDir: `${paths.sample}/${repository.seedFrom}`, historyFile: `${paths.sample}/${repository.seedFrom}.history.json`, remoteDir: remoteOf(paths, repository), branch: repository.branch });
          if (seeded.created) logger.info({ remote: seeded.remoteDir, repository: repository.id }, 'seeded a sample repository remote');
        }
        await mkdir(paths.worktrees, { recursive: true });
      });
      // Through the gateway (git.sync, audited); the gated repo takes the data lock itself.
      await gatedRepo.sync();
      await withDataLock(() => prepareDocs());
    },
    checks: [createCatalogCheck(catalog), logs, // The sandbox opens the catalog's channels itself; real Slack is asked for each of them.
      slack && mode === 'sandbox' ? createChannelsCheck(createSandboxCheck(slack.apiUrl, slack.botToken), catalog) : createChannelsCheck(chat, catalog, slackClient), analyst, createEmbedderCheck(embedder), store, repo, publisher, pullRequests, createProposalChecksCheck(catalog, detectIsolation),
      createCellLayoutCheck(redis, config.MEDIC_REDIS_PREFIX, config.MEDIC_REDIS_CELLS)],
    close: async () => watch.stop(),
  };

  async function prepareDocs(): Promise<void> {
    await store.ensure(embedder.id, embedder.dimension);
    if (paths.docs === undefined) {
      logger.info('no documents directory (MEDIC_DOCS_DIR) beside this repository: the documents already indexed are used as they are');
      return;
    }
    try {
      logger.info({ ...(await ingestDocs({ embedder, store }, { dir: paths.docs })) }, 'documents indexed');
    } catch (error) {
      if (!(error instanceof MedicError && error.code === ErrorCode.ValidationFailed)) throw error;
      logger.warn({ dir: paths.docs, err: error }, 'no documents indexed; similar docs will be empty');
    }
  }
}
