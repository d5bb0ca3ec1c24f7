/**
 * A loopback GitHub REST API: the few endpoints Medic uses, with GitHub's status codes and error
 * bodies. After the merge: the PR with `merged`, deployments and their statuses, releases, and a
 * compare over a commit graph the test builds (addCommit, mergePull). Accepts PATs and installation tokens (`token …`), issues installation tokens only to a
 * correctly signed App JWT (`bearer …`), and records every request for assertions.
 */
import { createPublicKey, createVerify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedGitHubRequest {
  method: string;
  path: string;
  authorization?: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- free-form JSON bodies that tests inspect field by field
  body: any;
}

export interface CheckRun {
  name: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion: string | null;
}

export interface LoopbackPull {
  number: number; head: string; base: string; title: string; body: string; draft: boolean; state: 'open' | 'closed';
  requestedReviewers: string[]; requestedTeams: string[];
  merged: boolean; mergedAt: string | null; mergeCommitSha: string | null; headSha: string;
}

export interface LoopbackDeployment {
  id: number; sha: string; ref: string; environment: string; task: string; createdAt: string;
  statuses: { id: number; state: 'error' | 'failure' | 'inactive' | 'in_progress' | 'queued' | 'pending' | 'success'; createdAt: string }[];
}

export interface LoopbackRelease {
  id: number; tagName: string; name: string; draft: boolean; prerelease: boolean; createdAt: string; publishedAt: string | null;
}

export interface LoopbackGitHubOptions {
  owner: string;
  repo: string;
  /** PATs accepted as `token <pat>`. */
  tokens?: string[];
  app?: { id: number; publicKeyPem: string; installationId: number; tokenTtlMs: number };
  /** Answer 422 "Draft pull requests are not supported" to draft PRs. */
  draftUnsupported?: boolean;
  /** The server's clock for installation-token expiry (share it with the client under test). */
  now?: () => number;
  /** Users and team slugs reviews may be requested from (GitHub: collaborators with read access). */
  collaborators?: string[];
  teams?: string[];
  /** The login that authors PRs (the token's user): GitHub refuses to request its own review. */
  author?: string;
}

export interface LoopbackGitHub {
  url: string;
  requests: RecordedGitHubRequest[];
  /** Installation tokens issued, in order. */
  issuedTokens: string[];
  pulls: LoopbackPull[];
  checkRuns: Map<string, CheckRun[]>;
  /** The repository's history as the compare endpoint sees it: each commit's parents. */
  commits: Map<string, string[]>;
  /** Branch and tag names compare resolves (a release's tag must be here to be compared). */
  branches: Map<string, string>;
  tags: Map<string, string>;
  deployments: LoopbackDeployment[];
  releases: LoopbackRelease[];
  /** Adds a commit on top of `parents` (unknown parents are added as roots). */
  addCommit(sha: string, parents?: string[]): void;
  /** Merges an open PR as GitHub's merge button does: a merge commit on the base, the PR closed and merged. */
  mergePull(number: number, merge: { mergeCommitSha: string; mergedAt?: string; headSha?: string }): void;
  createDeployment(input: { sha: string; environment?: string; ref?: string; createdAt?: string }): LoopbackDeployment;
  addDeploymentStatus(id: number, state: LoopbackDeployment['statuses'][number]['state'], createdAt?: string): void;
  createRelease(input: { tag: string; sha: string; draft?: boolean; prerelease?: boolean; createdAt?: string; publishedAt?: string }): LoopbackRelease;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-github-request-id': 'LOOPBACK' });
  res.end(JSON.stringify(body));
}

function verifyJwt(jwt: string, key: KeyObject, appId: number): boolean {
  const [header, payload, signature] = jwt.split('.');
  if (!header || !payload || !signature) return false;
  const ok = createVerify('RSA-SHA256').update(`${header}.${payload}`).verify(key, Buffer.from(signature, 'base64url'));
  if (!ok) return false;
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { iss?: unknown; exp?: number };
  return String(claims.iss) === String(appId) && typeof claims.exp === 'number' && claims.exp * 1000 > Date.now();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- free-form JSON bodies that tests inspect field by field
async function readBody(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

export async function startGitHubServer(options: LoopbackGitHubOptions): Promise<LoopbackGitHub> {
  const now = options.now ?? Date.now;
  const requests: RecordedGitHubRequest[] = [];
  const issuedTokens: string[] = [];
  const valid = new Map<string, number>((options.tokens ?? []).map((t) => [t, Number.POSITIVE_INFINITY]));
  const pulls: LoopbackGitHub['pulls'] = [];
  const checkRuns = new Map<string, CheckRun[]>();
  const publicKey = options.app ? createPublicKey(options.app.publicKeyPem) : undefined;
  const repoPath = `/repos/${options.owner}/${options.repo}`;
  let port = 0;
  const prUrl = (n: number) => `http://127.0.0.1:${port}/${options.owner}/${options.repo}/pull/${n}`;
  const commits = new Map<string, string[]>();
  const branches = new Map<string, string>();
  const tags = new Map<string, string>();
  const deployments: LoopbackDeployment[] = [];
  const releases: LoopbackRelease[] = [];
  let nextId = 1000;
  const api = (path: string) => `http://127.0.0.1:${port}${repoPath}${path}`;
  const userJson = (login: string) => ({ login, id: 1, type: 'User', site_admin: false });
  const prJson = (p: LoopbackPull) => ({
    number: p.number, html_url: prUrl(p.number), url: api(`/pulls/${p.number}`), state: p.state, draft: p.draft, locked: false,
    title: p.title, body: p.body, created_at: '2026-01-01T00:00:00Z', updated_at: p.mergedAt ?? '2026-01-01T00:00:00Z', closed_at: p.state === 'closed' ? p.mergedAt : null,
    merged_at: p.mergedAt, merge_commit_sha: p.mergeCommitSha,
    head: { ref: p.head, sha: p.headSha, label: `${options.owner}:${p.head}` }, base: { ref: p.base, sha: branches.get(p.base) ?? null, label: `${options.owner}:${p.base}` },
    user: { login: author, type: 'User' },
    requested_reviewers: p.requestedReviewers.map((login) => ({ login, type: 'User' })),
    requested_teams: p.requestedTeams.map((slug) => ({ slug, name: slug })),
  });
  const author = options.author ?? 'medic-bot';

  const addCommit = (sha: string, parents: string[] = []) => {
    for (const p of parents) if (!commits.has(p)) commits.set(p, []);
    commits.set(sha, parents);
  };
  /** A full sha, an unambiguous prefix of at least 7, a branch or a tag; undefined when GitHub would answer 404. */
  const resolve = (ref: string): string | undefined => {
    if (commits.has(ref)) return ref;
    const named = branches.get(ref) ?? tags.get(ref);
    if (named) return named;
    if (!/^[0-9a-f]{7,39}$/.test(ref)) return undefined;
    const hits = [...commits.keys()].filter((c) => c.startsWith(ref));
    return hits.length === 1 ? hits[0] : undefined;
  };
  const ancestors = (sha: string): Set<string> => {
    const seen = new Set<string>();
    const frontier = [sha];
    while (frontier.length > 0) {
      const c = frontier.pop()!;
      if (seen.has(c)) continue;
      seen.add(c);
      frontier.push(...(commits.get(c) ?? []));
    }
    return seen;
  };
  const commitJson = (sha: string) => ({
    sha, node_id: `C_${sha.slice(0, 8)}`, url: api(`/commits/${sha}`), html_url: `http://127.0.0.1:${port}/${options.owner}/${options.repo}/commit/${sha}`,
    commit: { message: `commit ${sha.slice(0, 7)}`, author: { name: 'Test', email: 'test@example.com', date: '2026-01-01T00:00:00Z' }, committer: { name: 'Test', email: 'test@example.com', date: '2026-01-01T00:00:00Z' }, tree: { sha: '4b825dc642cb6eb9a060e54bf8d69288fbee4904', url: api('/git/trees/4b825dc642cb6eb9a060e54bf8d69288fbee4904') }, comment_count: 0 },
    parents: (commits.get(sha) ?? []).map((p) => ({ sha: p, url: api(`/commits/${p}`) })),
  });
  function compareJson(res: ServerResponse, base: string, head: string, q: URLSearchParams): void {
    const ofBase = ancestors(base);
    const ofHead = ancestors(head);
    // The merge base: a common ancestor none of whose descendants (within the common set) is also common.
    const common = [...ofHead].filter((c) => ofBase.has(c));
    const mergeBase = common.find((c) => !common.some((o) => o !== c && ancestors(o).has(c)));
    if (!mergeBase) return send(res, 404, { message: `No common ancestor between ${base} and ${head}.`, documentation_url: 'https://docs.github.com/rest/commits/commits#compare-two-commits', status: '404' });
    const aheadCommits = [...ofHead].filter((c) => !ofBase.has(c));
    const behindBy = [...ofBase].filter((c) => !ofHead.has(c)).length;
    const status = base === head ? 'identical' : aheadCommits.length > 0 && behindBy > 0 ? 'diverged' : aheadCommits.length > 0 ? 'ahead' : 'behind';
    send(res, 200, {
      url: api(`/compare/${base}...${head}`), html_url: `http://127.0.0.1:${port}/${options.owner}/${options.repo}/compare/${base}...${head}`,
      permalink_url: `http://127.0.0.1:${port}/${options.owner}/${options.repo}/compare/${options.owner}:${base.slice(0, 7)}...${options.owner}:${head.slice(0, 7)}`,
      diff_url: `http://127.0.0.1:${port}/${options.owner}/${options.repo}/compare/${base}...${head}.diff`, patch_url: `http://127.0.0.1:${port}/${options.owner}/${options.repo}/compare/${base}...${head}.patch`,
      base_commit: commitJson(base), merge_base_commit: commitJson(mergeBase),
      status, ahead_by: aheadCommits.length, behind_by: behindBy, total_commits: aheadCommits.length,
      commits: page(aheadCommits.reverse(), q, 250).map(commitJson), files: [],
    });
  }
  // GitHub's list order (newest first) and paging (per_page, at most 100; page from 1).
  const newestFirst = <T extends { createdAt: string; id: number }>(items: T[]) => [...items].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id);
  const page = <T>(items: T[], q: URLSearchParams, max = 100): T[] => {
    const perPage = Math.min(max, Math.max(1, Number(q.get('per_page') ?? 30) || 30));
    const n = Math.max(1, Number(q.get('page') ?? 1) || 1);
    return items.slice((n - 1) * perPage, n * perPage);
  };
  const deploymentJson = (d: LoopbackDeployment) => ({
    url: api(`/deployments/${d.id}`), id: d.id, node_id: `DE_${d.id}`, sha: d.sha, ref: d.ref, task: d.task, payload: {}, original_environment: d.environment,
    environment: d.environment, description: null, creator: userJson('deployer'), created_at: d.createdAt, updated_at: d.statuses.at(-1)?.createdAt ?? d.createdAt,
    statuses_url: api(`/deployments/${d.id}/statuses`), repository_url: api(''), transient_environment: false, production_environment: d.environment === 'production',
  });
  const statusJson = (d: LoopbackDeployment, s: LoopbackDeployment['statuses'][number]) => ({
    url: api(`/deployments/${d.id}/statuses/${s.id}`), id: s.id, node_id: `DES_${s.id}`, state: s.state, creator: userJson('deployer'), description: '',
    environment: d.environment, target_url: '', log_url: '', environment_url: '', created_at: s.createdAt, updated_at: s.createdAt,
    deployment_url: api(`/deployments/${d.id}`), repository_url: api(''),
  });
  const releaseJson = (r: LoopbackRelease) => ({
    url: api(`/releases/${r.id}`), html_url: `http://127.0.0.1:${port}/${options.owner}/${options.repo}/releases/tag/${r.tagName}`, assets_url: api(`/releases/${r.id}/assets`),
    upload_url: `http://127.0.0.1:${port}/uploads${repoPath}/releases/${r.id}/assets{?name,label}`, tarball_url: api(`/tarball/${r.tagName}`), zipball_url: api(`/zipball/${r.tagName}`),
    id: r.id, node_id: `RE_${r.id}`, tag_name: r.tagName, target_commitish: 'main', name: r.name, body: '', draft: r.draft, prerelease: r.prerelease,
    created_at: r.createdAt, published_at: r.draft ? null : r.publishedAt, author: userJson('releaser'), assets: [],
  });

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://loopback');
      const body = await readBody(req);
      const authorization = req.headers.authorization;
      requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, authorization, body });
      const [scheme = '', credential = ''] = (authorization ?? '').split(' ');

      const tokenRoute = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(url.pathname);
      if (tokenRoute && req.method === 'POST') {
        if (!options.app || !publicKey || scheme.toLowerCase() !== 'bearer' || !verifyJwt(credential, publicKey, options.app.id)) {
          return send(res, 401, { message: 'A JSON web token could not be decoded', documentation_url: 'https://docs.github.com/rest' });
        }
        if (Number(tokenRoute[1]) !== options.app.installationId) return send(res, 404, { message: 'Not Found' });
        const token = `ghs_loopback${String(issuedTokens.length + 1).padStart(4, '0')}${'x'.repeat(24)}`;
        const expiresAt = now() + options.app.tokenTtlMs;
        issuedTokens.push(token);
        valid.set(token, expiresAt);
        return send(res, 201, { token, expires_at: new Date(expiresAt).toISOString(), permissions: { contents: 'write', pull_requests: 'write', checks: 'read' }, repository_selection: 'all' });
      }

      if (scheme.toLowerCase() !== 'token' || (valid.get(credential) ?? 0) <= now()) {
        return send(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
      }
      if (url.pathname === repoPath && req.method === 'GET') return send(res, 200, { full_name: `${options.owner}/${options.repo}`, default_branch: 'main' });

      if (url.pathname === `${repoPath}/pulls` && req.method === 'POST') {
        const input = body as { head: string; base: string; title: string; body: string; draft?: boolean };
        if (input.draft && options.draftUnsupported) {
          return send(res, 422, { message: 'Draft pull requests are not supported in this repository.', documentation_url: 'https://docs.github.com/rest/pulls/pulls#create-a-pull-request' });
        }
        if (pulls.some((p) => p.head === input.head && p.state === 'open')) {
          return send(res, 422, { message: 'Validation Failed', errors: [{ resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${options.owner}:${input.head}.` }], documentation_url: 'https://docs.github.com/rest/pulls/pulls#create-a-pull-request' });
        }
        const pr: LoopbackPull = {
          number: pulls.length + 1, head: input.head, base: input.base, title: input.title, body: input.body, draft: Boolean(input.draft), state: 'open', requestedReviewers: [], requestedTeams: [],
          merged: false, mergedAt: null, mergeCommitSha: null, headSha: branches.get(input.head) ?? '0'.repeat(40),
        };
        pulls.push(pr);
        return send(res, 201, prJson(pr));
      }
      if (url.pathname === `${repoPath}/pulls` && req.method === 'GET') {
        const head = url.searchParams.get('head');
        const state = url.searchParams.get('state') ?? 'open';
        return send(res, 200, pulls.filter((p) => (!head || `${options.owner}:${p.head}` === head) && (state === 'all' || p.state === state)).map(prJson));
      }
      // GET /repos/{owner}/{repo}/pulls/{pull_number}: the full PR, with `merged` (the list has only merged_at).
      const pull = new RegExp(`^${repoPath}/pulls/(\\d+)$`).exec(url.pathname);
      if (pull && req.method === 'GET') {
        const pr = pulls.find((p) => p.number === Number(pull[1]));
        if (!pr) return send(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/pulls/pulls#get-a-pull-request', status: '404' });
        return send(res, 200, { ...prJson(pr), merged: pr.merged, mergeable: pr.merged ? null : true, mergeable_state: pr.merged ? 'unknown' : 'clean', merged_by: pr.merged ? userJson('octocat') : null, commits: 1, additions: 1, deletions: 1, changed_files: 1 });
      }
      if (url.pathname === `${repoPath}/deployments` && req.method === 'GET') {
        const q = url.searchParams;
        const matching = deployments.filter((d) => (!q.get('sha') || d.sha === q.get('sha')) && (!q.get('ref') || d.ref === q.get('ref')) && (!q.get('task') || d.task === q.get('task')) && (!q.has('environment') || d.environment === q.get('environment')));
        return send(res, 200, page(newestFirst(matching), q).map(deploymentJson));
      }
      const statuses = new RegExp(`^${repoPath}/deployments/(\\d+)/statuses$`).exec(url.pathname);
      if (statuses && req.method === 'GET') {
        const d = deployments.find((x) => x.id === Number(statuses[1]));
        if (!d) return send(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/deployments/statuses#list-deployment-statuses', status: '404' });
        return send(res, 200, page(newestFirst(d.statuses), url.searchParams).map((s) => statusJson(d, s)));
      }
      if (url.pathname === `${repoPath}/releases` && req.method === 'GET') {
        return send(res, 200, page(newestFirst(releases), url.searchParams).map(releaseJson));
      }
      // GET /repos/{owner}/{repo}/compare/{base}...{head}: how head relates to base in the history.
      const compare = new RegExp(`^${repoPath}/compare/(.+)$`).exec(url.pathname);
      if (compare && req.method === 'GET') {
        const basehead = decodeURIComponent(compare[1]!);
        const [baseRef = '', headRef = ''] = basehead.split('...');
        const base = resolve(baseRef);
        const head = resolve(headRef);
        if (!base || !head) return send(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/commits/commits#compare-two-commits', status: '404' });
        return compareJson(res, base, head, url.searchParams);
      }
      // POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers, with GitHub's refusals.
      const review = new RegExp(`^${repoPath}/pulls/(\\d+)/requested_reviewers$`).exec(url.pathname);
      if (review && req.method === 'POST') {
        const pr = pulls.find((p) => p.number === Number(review[1]));
        if (!pr) return send(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/pulls/review-requests#request-reviewers-for-a-pull-request' });
        const input = (body ?? {}) as { reviewers?: unknown; team_reviewers?: unknown };
        const users = Array.isArray(input.reviewers) ? input.reviewers.map(String) : [];
        const teams = Array.isArray(input.team_reviewers) ? input.team_reviewers.map(String) : [];
        if (users.includes(author)) return send(res, 422, { message: 'Review cannot be requested from pull request author.', documentation_url: 'https://docs.github.com/rest/pulls/review-requests#request-reviewers-for-a-pull-request' });
        const known = new Set(options.collaborators ?? []);
        const knownTeams = new Set(options.teams ?? []);
        if (users.some((u) => !known.has(u)) || teams.some((t) => !knownTeams.has(t))) {
          return send(res, 422, { message: `Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the ${options.owner}/${options.repo} repository.`, documentation_url: 'https://docs.github.com/rest/pulls/review-requests#request-reviewers-for-a-pull-request' });
        }
        pr.requestedReviewers = [...new Set([...pr.requestedReviewers, ...users])];
        pr.requestedTeams = [...new Set([...pr.requestedTeams, ...teams])];
        return send(res, 201, prJson(pr));
      }
      const checks = new RegExp(`^${repoPath}/commits/(.+)/check-runs$`).exec(url.pathname);
      if (checks && req.method === 'GET') {
        const runs = checkRuns.get(decodeURIComponent(checks[1]!)) ?? [];
        return send(res, 200, { total_count: runs.length, check_runs: runs.map((r, i) => ({ id: i + 1, ...r })) });
      }
      return send(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
    })().catch((err: unknown) => send(res, 500, { message: String(err) }));
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`, requests, issuedTokens, pulls, checkRuns, commits, branches, tags, deployments, releases,
    addCommit,
    mergePull(number, merge) {
      const pr = pulls.find((p) => p.number === number);
      if (!pr || pr.state !== 'open') throw new Error(`no open pull request #${number}`);
      if (merge.headSha) pr.headSha = merge.headSha;
      const baseHead = branches.get(pr.base);
      addCommit(merge.mergeCommitSha, [...(baseHead ? [baseHead] : []), ...(commits.has(pr.headSha) ? [pr.headSha] : [])]);
      branches.set(pr.base, merge.mergeCommitSha);
      Object.assign(pr, { state: 'closed', merged: true, mergedAt: merge.mergedAt ?? new Date(now()).toISOString().replace(/\.\d{3}Z$/, 'Z'), mergeCommitSha: merge.mergeCommitSha });
    },
    createDeployment(input) {
      const d: LoopbackDeployment = { id: ++nextId, sha: input.sha, ref: input.ref ?? input.sha, environment: input.environment ?? 'production', task: 'deploy', createdAt: input.createdAt ?? new Date(now()).toISOString(), statuses: [] };
      deployments.push(d);
      return d;
    },
    addDeploymentStatus(id, state, createdAt) {
      const d = deployments.find((x) => x.id === id);
      if (!d) throw new Error(`no deployment ${id}`);
      d.statuses.push({ id: ++nextId, state, createdAt: createdAt ?? new Date(now()).toISOString() });
    },
    createRelease(input) {
      tags.set(input.tag, input.sha);
      const createdAt = input.createdAt ?? new Date(now()).toISOString();
      const r: LoopbackRelease = { id: ++nextId, tagName: input.tag, name: input.tag, draft: Boolean(input.draft), prerelease: Boolean(input.prerelease), createdAt, publishedAt: input.draft ? null : (input.publishedAt ?? createdAt) };
      releases.push(r);
      return r;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
