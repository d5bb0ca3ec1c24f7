import { parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { Severity } from '../event.js';
import type { CatalogProblem, CatalogRepository, CatalogService } from './catalog.js';

export const Slug = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'must be a lowercase slug (a-z, 0-9, . _ -), at most 64 characters');
const Text = z.string().trim().min(1, 'must not be empty').max(256);
/** A Slack user id (U…, W…), an operator id, or `group:<S…>` for a Slack user group. */
export const Principal = z.string().regex(/^(group:)?[A-Za-z0-9._-]{1,64}$/, 'must be a Slack user id or group:<usergroup id>');
const Channel = z.string().regex(/^#?[a-z0-9._-]{1,80}$|^[CGD][A-Z0-9]{2,20}$/, 'must be a Slack channel name or id');
/** A path inside the repository: relative, no `..`, no glob characters. */
export const RepoDir = z.string().max(256).refine((p) => p === '' || (!p.startsWith('/') && !p.split('/').includes('..') && !/[*?[\]{}!\\]/.test(p)), 'must be a relative directory inside the repository, without .. or glob characters');

/**
 * `verify:` of a service: the quiet window after the deploy, and what counts as the deploy —
 * the merge (default), a GitHub deployment (of an environment) or release, or a log line.
 */
const VerifyEntry = z.strictObject({
  quiet_minutes: z.number().int().min(1).max(10_080).optional(),
  deploy: z.enum(['merge', 'github-deployment', 'github-release', 'log-line']).default('merge'),
  environment: Text.optional(),
  /** A log line of the service marking a deploy (plain text, matched case-insensitively). */
  pattern: z.string().trim().min(3).max(200).optional(),
}).superRefine((v, ctx) => {
  if (v.deploy === 'log-line' && v.pattern === undefined) ctx.addIssue({ code: 'custom', path: ['pattern'], message: 'a log-line deploy marker needs the pattern of the line' });
  if (v.deploy !== 'log-line' && v.pattern !== undefined) ctx.addIssue({ code: 'custom', path: ['pattern'], message: 'pattern is only read with deploy: log-line' });
  if (v.deploy !== 'github-deployment' && v.environment !== undefined) ctx.addIssue({ code: 'custom', path: ['environment'], message: 'environment is only read with deploy: github-deployment' });
});

function verifySettings(v: z.infer<typeof VerifyEntry> | undefined): CatalogService['verify'] {
  if (!v) return undefined;
  const deploy: NonNullable<CatalogService['verify']>['deploy'] =
    v.deploy === 'github-deployment' ? { kind: 'github-deployment', ...(v.environment ? { environment: v.environment } : {}) }
      : v.deploy === 'github-release' ? { kind: 'github-release' }
        : v.deploy === 'log-line' ? { kind: 'log-line', pattern: v.pattern ?? '' }
          : undefined;
  return { ...(v.quiet_minutes ? { quietMinutes: v.quiet_minutes } : {}), ...(deploy ? { deploy } : {}) };
}

export const CHECK_LIMITS = { defaultTimeoutS: 300, maxTimeoutS: 1_800, defaultMemoryMb: 4_096, minMemoryMb: 256, maxMemoryMb: 65_536 } as const;

/**
 * `check:` of a service: one shell command line (`npm run build`, `go build ./...`), its time
 * limit and its address-space limit. JVMs and V8 reserve address space well beyond what they use,
 * so the floor is 256 MB and the default 4 GB.
 */
export const CheckEntry = z.strictObject({
  command: z.string().trim().min(1, 'must not be empty').max(500).refine((c) => ![...c].some(isControl), 'must be one line of shell, without control characters'),
  timeout_s: z.number().int().min(1).max(CHECK_LIMITS.maxTimeoutS).default(CHECK_LIMITS.defaultTimeoutS),
  memory_mb: z.number().int().min(CHECK_LIMITS.minMemoryMb).max(CHECK_LIMITS.maxMemoryMb).default(CHECK_LIMITS.defaultMemoryMb),
});

/** A validated `check:` entry as the catalog keeps it. */
export function checkSettings(c: z.infer<typeof CheckEntry>): NonNullable<CatalogService['check']> {
  return { command: c.command, timeoutS: c.timeout_s, memoryMb: c.memory_mb };
}

const ServiceEntry = z.strictObject({
  name: Slug,
  aliases: z.array(Text).max(50).default([]),
  owner: Text.optional(),
  repository: Slug.optional(),
  path: RepoDir.default(''),
  channel: Channel.optional(),
  approvers: z.array(Principal).max(200).default([]),
  elevated_approvers: z.array(Principal).max(200).default([]),
  readers: z.array(Principal).max(500).default([]),
  open: z.strictObject({ min_severity: Severity.default('error') }).default({ min_severity: 'error' }),
  splunk: z.strictObject({ index: Text.optional(), sourcetype: Text.optional() }).default({}),
  actions: z.array(Slug).max(200).optional(),
  verify: VerifyEntry.optional(),
  check: CheckEntry.optional(),
});

const RepositoryEntry = z.strictObject({
  id: Slug,
  remote: Text.optional(),
  branch: Text.default('main'),
  github: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'must be owner/name').optional(),
  seed_from: Slug.optional(),
}).superRefine((repo, ctx) => {
  if (repo.remote === undefined && repo.seed_from === undefined) ctx.addIssue({ code: 'custom', path: ['remote'], message: 'set the git remote (or seed_from for a sample directory)' });
});

const CatalogFile = z.strictObject({
  version: z.literal(1),
  default_channel: Channel.optional(),
  unknown_services: z.strictObject({ route_to: Slug }).optional(),
  repositories: z.array(RepositoryEntry).max(500).default([]),
  services: z.array(ServiceEntry).max(2_000).default([]),
});

export interface CatalogPart {
  source: string;
  services: (Omit<CatalogService, 'channel'> & { channel?: string })[];
  repositories: CatalogRepository[];
  defaultChannel?: string;
  unknownRoutesTo?: string;
}

export const stripHash = (channel: string) => channel.replace(/^#/, '');

/** Pure: reads Medic's own catalog file (`data/catalog.yaml`), listing every problem with its place. */
export function parseCatalogFile(text: string, source: string): { part?: CatalogPart; problems: CatalogProblem[] } {
  const docs = parseAllDocuments(text);
  const docList = Array.isArray(docs) ? docs : [docs];
  const yamlErrors = docList.flatMap((d) => d.errors);
  if (yamlErrors.length > 0) return { problems: yamlErrors.map((e) => ({ where: source, message: `not valid YAML: ${e.message.split('\n')[0] ?? ''}` })) };
  if (docList.length > 1) return { problems: [{ where: source, message: 'holds several YAML documents; Medic\'s catalog is one document (Backstage entities go in MEDIC_CATALOG_DIR)' }] };
  const parsed = CatalogFile.safeParse(docList[0]?.toJS() ?? { version: 1 });
  if (!parsed.success) return { problems: parsed.error.issues.map((issue) => ({ where: `${source}: ${issue.path.join('.') || '(file)'}`, message: issue.message })) };
  const file = parsed.data;
  return {
    problems: [],
    part: {
      source,
      defaultChannel: file.default_channel && stripHash(file.default_channel),
      unknownRoutesTo: file.unknown_services?.route_to,
      repositories: file.repositories.map((r) => ({ id: r.id, remote: r.remote, branch: r.branch, github: r.github, seedFrom: r.seed_from })),
      services: file.services.map((s) => ({
        name: s.name, aliases: s.aliases, owner: s.owner, repository: s.repository, path: trimSlashes(s.path), channel: s.channel && stripHash(s.channel),
        approvers: s.approvers, elevatedApprovers: s.elevated_approvers, readers: s.readers, minSeverity: s.open.min_severity, splunk: s.splunk, actions: s.actions,
        ...(s.verify ? { verify: verifySettings(s.verify) } : {}),
        ...(s.check ? { check: checkSettings(s.check) } : {}),
      })),
    },
  };
}

/** A control character other than tab: a newline would hide a second command from whoever reads the first line. */
const isControl = (ch: string) => {
  const code = ch.charCodeAt(0);
  return (code < 32 && code !== 9) || code === 127;
};

export const trimSlashes = (path: string) => path.replace(/^\.\/+/, '').replace(/\/+$/, '');
