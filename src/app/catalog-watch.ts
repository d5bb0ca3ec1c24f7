import { resolveChannelId } from '../adapters/slack/resolve-channel.js';
import type { SlackWebClient } from '../adapters/slack/web-client.js';
import { describeProblems } from '../adapters/catalog-files/file-service-catalog.js';
import { PIPELINE_ACTOR } from '../domain/audit.js';
import type { Logger } from '../observability/logger.js';
import type { AuditLog } from '../ports/audit.js';
import type { Checkable, ServiceCheck } from '../ports/service-check.js';
import type { ServiceCatalog } from '../ports/service-catalog.js';

/**
 * Polls the catalog's files (content hash, every `intervalMs`) so an edit takes effect without a
 * restart. Each change is audited — applied, or refused with its problems while the last good
 * catalog stays in force — and logged; an unchanged file costs one read and a hash.
 */
export function startCatalogWatch(options: { catalog: ServiceCatalog; intervalMs: number; logger: Logger; audit: AuditLog; now?: () => Date }): { stop(): void; tick(): Promise<void> } {
  const { catalog, logger, audit } = options;
  const now = options.now ?? (() => new Date());
  let lastProblems = '';
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const before = catalog.current();
      const { changed, status } = await catalog.refresh();
      if (changed) {
        const after = catalog.current();
        lastProblems = '';
        logger.info({ sources: status.sources, services: after.services.length, repositories: after.repositories.length }, 'service catalog reloaded');
        await audit.append([{
          at: now().toISOString(), action: 'catalog.reload', outcome: 'done', actor: PIPELINE_ACTOR,
          details: { sources: status.sources, servicesBefore: before.services.map((s) => s.name), servicesAfter: after.services.map((s) => s.name), repositories: after.repositories.map((r) => r.id) },
        }]);
      } else if (!status.ok) {
        const text = describeProblems(status.problems);
        if (text === lastProblems) return;
        lastProblems = text;
        logger.error({ problems: status.problems }, `the changed service catalog is invalid; the last good one stays in force:\n${text}`);
        await audit.append([{ at: now().toISOString(), action: 'catalog.reload', outcome: 'failed', actor: PIPELINE_ACTOR, reason: 'the changed catalog is invalid; the last good one stays in force', details: { problems: status.problems.slice(0, 50) } }]);
      }
    } catch (error) {
      logger.warn({ err: error }, 'could not check the service catalog for changes');
    } finally {
      running = false;
    }
  };
  const timer = options.intervalMs > 0 ? setInterval(() => void tick(), options.intervalMs) : undefined;
  timer?.unref();
  return { stop: () => clearInterval(timer), tick };
}

/** `/readyz` and `doctor`: the catalog in force, and why an edit of it was refused. */
export function createCatalogCheck(catalog: ServiceCatalog): Checkable {
  return {
    async check(): Promise<ServiceCheck> {
      const status = catalog.status();
      const current = catalog.current();
      const summary = `${current.services.length} service(s), ${current.repositories.length} repositories from ${status.sources.join(', ')} (loaded ${status.loadedAt})`;
      // Still serving with the last good catalog: ready, but the detail says what is wrong with the files.
      return status.ok
        ? { name: 'service catalog', adapter: 'catalog', ok: true, detail: summary }
        : { name: 'service catalog', adapter: 'catalog', ok: true, detail: `the files now have ${status.problems.length} problem(s), so the last good catalog is in force: ${summary}. Problems: ${status.problems.map((p) => `${p.where}: ${p.message}`).join('; ')}` };
    },
  };
}

/** The chat check, plus every channel of the catalog resolved the way a card post resolves it. */
export function createChannelsCheck(chat: Checkable, catalog: ServiceCatalog, client?: SlackWebClient): Checkable {
  return {
    async check(): Promise<ServiceCheck> {
      const base = await chat.check();
      const channels = [...new Set([catalog.current().defaultChannel, ...catalog.current().services.map((s) => s.channel)])];
      if (!client || !base.ok || base.idle) return { ...base, detail: `${base.detail}; channels ${channels.map((c) => `#${c}`).join(', ')}` };
      const results = await Promise.all(channels.map((c) => resolveChannelId(client, c).then(() => undefined, (error: unknown) => `#${c}: ${error instanceof Error ? error.message : String(error)}`)));
      const failed = results.filter((r): r is string => r !== undefined);
      return failed.length === 0
        ? { ...base, detail: `${base.detail}; all ${channels.length} catalog channel(s) found` }
        : { ...base, ok: false, detail: `${base.detail}; ${failed.length} of ${channels.length} catalog channel(s) not usable: ${failed.join('; ')}` };
    },
  };
}
