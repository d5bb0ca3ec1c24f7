import { parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { Severity } from '../event.js';
import type { CatalogProblem, CatalogRepository, CatalogService } from './catalog.js';
import { CheckEntry, checkSettings, Principal, RepoDir, Slug, stripHash, trimSlashes, type CatalogPart } from './parse-catalog-file.js';

/**
 * The Backstage annotations Medic reads from a `Component`. The first three are Backstage's own
 * conventions; the `medic.dev/*` ones carry what Backstage has no word for.
 */
export const Annotation = {
  projectSlug: 'github.com/project-slug',
  sourceLocation: 'backstage.io/source-location',
  slackChannel: 'slack.com/channel',
  /** The Slack notifications module's annotation: a channel (or user) to notify. */
  slackBotNotify: 'slack.com/bot-notify',
  remote: 'medic.dev/repo-remote',
  branch: 'medic.dev/repo-branch',
  path: 'medic.dev/repo-path',
  aliases: 'medic.dev/aliases',
  approvers: 'medic.dev/approvers',
  elevatedApprovers: 'medic.dev/elevated-approvers',
  readers: 'medic.dev/readers',
  minSeverity: 'medic.dev/min-severity',
  splunkIndex: 'medic.dev/splunk-index',
  splunkSourcetype: 'medic.dev/splunk-sourcetype',
  actions: 'medic.dev/actions',
  checkCommand: 'medic.dev/check-command',
  checkTimeout: 'medic.dev/check-timeout-s',
  checkMemory: 'medic.dev/check-memory-mb',
} as const;

const Entity = z.object({
  apiVersion: z.string().optional(),
  kind: z.string(),
  metadata: z.object({ name: z.string(), annotations: z.record(z.string(), z.string()).default({}) }),
  spec: z.object({ owner: z.string().optional() }).passthrough().default({}),
});

const list = (value: string | undefined) => (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);

/** `url:https://github.com/o/r/tree/main/services/pay/` → branch `main`, path `services/pay`. */
export function parseSourceLocation(value: string): { slug?: string; branch?: string; path?: string } {
  const m = /^url:https?:\/\/[^/]+\/([^/]+\/[^/]+?)(?:\.git)?(?:\/(?:tree|blob)\/([^/]+)(?:\/(.*))?)?\/?$/.exec(value.trim());
  if (!m) return {};
  return { slug: m[1], branch: m[2], path: m[3] === undefined ? undefined : trimSlashes(m[3]) };
}

/** The repository id for a GitHub slug: `acme/Shop` → `acme-shop`. */
export const repositoryIdOf = (slug: string) => slug.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[^a-z0-9]+/, '').slice(0, 64);

/** The check annotations as `check:` would say them; annotation values are strings, so the numbers are read first. */
function readCheck(a: Record<string, string>, problem: (field: string, message: string) => void): CatalogService['check'] {
  const number = (key: string) => (a[key] === undefined ? undefined : /^\d+$/.test(a[key].trim()) ? Number(a[key]) : Number.NaN);
  const parsed = CheckEntry.safeParse({
    command: a[Annotation.checkCommand],
    ...(a[Annotation.checkTimeout] !== undefined ? { timeout_s: number(Annotation.checkTimeout) } : {}),
    ...(a[Annotation.checkMemory] !== undefined ? { memory_mb: number(Annotation.checkMemory) } : {}),
  });
  if (parsed.success) return checkSettings(parsed.data);
  const field: Record<string, string> = { command: Annotation.checkCommand, timeout_s: Annotation.checkTimeout, memory_mb: Annotation.checkMemory };
  for (const issue of parsed.error.issues) problem(field[String(issue.path[0])] ?? Annotation.checkCommand, issue.message);
  return undefined;
}

/** Pure: the `Component` entities of one `catalog-info.yaml` (several documents allowed) as catalog services. */
export function parseBackstageEntities(text: string, source: string): { part?: CatalogPart; problems: CatalogProblem[] } {
  const problems: CatalogProblem[] = [];
  const part: CatalogPart = { source, services: [], repositories: [] };
  const docs = parseAllDocuments(text);
  for (const [i, doc] of (Array.isArray(docs) ? docs : [docs]).entries()) {
    const where = `${source} (document ${i + 1})`;
    if (doc.errors.length > 0) {
      problems.push({ where, message: `not valid YAML: ${doc.errors[0]?.message.split('\n')[0] ?? ''}` });
      continue;
    }
    const raw = doc.toJS() as unknown;
    if (raw === null || raw === undefined) continue;
    const entity = Entity.safeParse(raw);
    if (!entity.success) {
      problems.push(...entity.error.issues.map((issue) => ({ where: `${where}: ${issue.path.join('.')}`, message: issue.message })));
      continue;
    }
    if (entity.data.kind !== 'Component') continue;
    const { metadata, spec } = entity.data;
    const at = `${where}: ${metadata.name}`;
    const a = metadata.annotations;
    const check = <T>(schema: z.ZodType<T>, value: unknown, field: string): T | undefined => {
      const r = schema.safeParse(value);
      if (!r.success) problems.push({ where: `${at}: ${field}`, message: r.error.issues[0]?.message ?? 'invalid' });
      return r.success ? r.data : undefined;
    };
    const name = check(Slug, metadata.name.toLowerCase(), 'metadata.name');
    const location = a[Annotation.sourceLocation] ? parseSourceLocation(a[Annotation.sourceLocation] ?? '') : {};
    const slug = a[Annotation.projectSlug] ?? location.slug;
    if (slug !== undefined && !/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(slug)) problems.push({ where: `${at}: ${Annotation.projectSlug}`, message: 'must be owner/name' });
    const path = check(RepoDir, a[Annotation.path] ?? location.path ?? '', Annotation.path) ?? '';
    const principals = (key: string) => list(a[key]).filter((p) => check(Principal, p, key) !== undefined);
    const minSeverity = check(Severity, a[Annotation.minSeverity] ?? 'error', Annotation.minSeverity) ?? 'error';
    const actions = a[Annotation.actions] === undefined ? undefined : list(a[Annotation.actions]).filter((x) => check(Slug, x, Annotation.actions) !== undefined);
    const channel = a[Annotation.slackChannel] ?? a[Annotation.slackBotNotify];
    const checkEntry = a[Annotation.checkCommand] === undefined ? undefined : readCheck(a, (field, message) => problems.push({ where: `${at}: ${field}`, message }));
    let repository: CatalogRepository | undefined;
    if (slug !== undefined && /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(slug)) {
      repository = { id: repositoryIdOf(slug), remote: a[Annotation.remote] ?? `https://github.com/${slug}.git`, branch: a[Annotation.branch] ?? location.branch ?? 'main', github: slug };
      const same = part.repositories.find((r) => r.id === repository?.id);
      if (!same) part.repositories.push(repository);
      else if (same.remote !== repository.remote || same.branch !== repository.branch) problems.push({ where: at, message: `declares ${slug} with another remote or branch than an earlier component of this file` });
    }
    if (name === undefined) continue;
    part.services.push({
      name, aliases: list(a[Annotation.aliases]), owner: spec.owner, repository: repository?.id, path: trimSlashes(path),
      channel: channel === undefined ? undefined : stripHash(channel.trim()),
      approvers: principals(Annotation.approvers), elevatedApprovers: principals(Annotation.elevatedApprovers), readers: principals(Annotation.readers),
      minSeverity, splunk: { index: a[Annotation.splunkIndex], sourcetype: a[Annotation.splunkSourcetype] }, actions,
      ...(checkEntry ? { check: checkEntry } : {}),
    });
  }
  return { part: problems.length === 0 ? part : undefined, problems };
}
