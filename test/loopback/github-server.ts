/**
 * A loopback GitHub REST API: the few endpoints Medic uses, with GitHub's status codes and error
 * bodies. Accepts PATs and installation tokens (`token …`), issues installation tokens only to a
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
  pulls: { number: number; head: string; base: string; title: string; body: string; draft: boolean; state: 'open' | 'closed'; requestedReviewers: string[]; requestedTeams: string[] }[];
  checkRuns: Map<string, CheckRun[]>;
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
  const prJson = (p: LoopbackGitHub['pulls'][number]) => ({
    number: p.number, html_url: prUrl(p.number), url: `http://127.0.0.1:${port}${repoPath}/pulls/${p.number}`, state: p.state, draft: p.draft,
    title: p.title, body: p.body, head: { ref: p.head, label: `${options.owner}:${p.head}` }, base: { ref: p.base },
    user: { login: author, type: 'User' },
    requested_reviewers: p.requestedReviewers.map((login) => ({ login, type: 'User' })),
    requested_teams: p.requestedTeams.map((slug) => ({ slug, name: slug })),
  });
  const author = options.author ?? 'medic-bot';

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
        const pr = { number: pulls.length + 1, head: input.head, base: input.base, title: input.title, body: input.body, draft: Boolean(input.draft), state: 'open' as const, requestedReviewers: [], requestedTeams: [] };
        pulls.push(pr);
        return send(res, 201, prJson(pr));
      }
      if (url.pathname === `${repoPath}/pulls` && req.method === 'GET') {
        const head = url.searchParams.get('head');
        const state = url.searchParams.get('state') ?? 'open';
        return send(res, 200, pulls.filter((p) => (!head || `${options.owner}:${p.head}` === head) && (state === 'all' || p.state === state)).map(prJson));
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
  return { url: `http://127.0.0.1:${port}`, requests, issuedTokens, pulls, checkRuns, close: () => new Promise<void>((done) => server.close(() => done())) };
}
