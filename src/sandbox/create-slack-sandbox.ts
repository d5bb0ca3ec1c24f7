import { readFile } from 'node:fs/promises';
import { HEALTH_BODY } from '../http/ops-routes.js';
import { join } from 'node:path';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveEmoji } from './emoji-font.js';
import { applyResponse } from './inbound.js';
import { BodyTooLarge, parseArgs, readBody, readBytes, sendFile, sendJson } from './http-io.js';
import { MAX_FILE_BYTES, uploadedBytes } from './sandbox-files.js';
import { handlePageAction, pageState, type PageDeps } from './page-routes.js';
import { createSandboxHistory } from './sandbox-history.js';
import { sandboxChannelId, SandboxState, type Fault } from './sandbox-state.js';
import type { RedisClient } from '../adapters/redis/connect.js';
import { SANDBOX_USERS, type SandboxUser } from './sandbox-users.js';
import { callWebApi } from './web-api.js';
import { installDir } from '../install-dir.js';
import { assertLoopbackHost, refuseRequest } from './request-guard.js';
import { handleMerge, mergeAvailable } from './merge-route.js';
import type { LocalRemote } from './merge-fix-branch.js';

export interface SlackSandboxOptions {
  port: number;
  host?: string;
  signingSecret: string;
  /** Medic's `/slack/events`; a function when Medic's port is only known after the sandbox starts. */
  medicEventsUrl: string | (() => string);
  botToken: string;
  channelName?: string;
  channelId?: string;
  /** More channels the workspace has (the service catalog's on-call channels), by name. */
  otherChannels?: readonly string[];
  users?: readonly SandboxUser[];
  command?: string;
  /** Where the channel history is kept across restarts; in memory only when absent. */
  history?: { redis: RedisClient; prefix: string };
  /** The local bare remotes fix branches are pushed to, which the page's "Merge fix branch" merges into. */
  localRemotes?: () => readonly LocalRemote[];
}

export interface SlackSandbox {
  /** The page. */
  url: string;
  /** The Web API base for SLACK_API_URL (ends in `/api/`). */
  apiUrl: string;
  channelId: string;
  state: SandboxState;
  /** Makes the next `times` calls to `method` fail (429 with Retry-After, 5xx, or a platform error). */
  injectFault(fault: Omit<Fault, 'times'> & { times?: number }): void;
  close(): Promise<void>;
}

const PAGE_FILES: Record<string, [string, string]> = {
  '/': ['index.html', 'text/html'],
  '/sandbox.js': ['sandbox.js', 'text/javascript'],
  '/sandbox.css': ['sandbox.css', 'text/css'],
  '/merge-action.js': ['merge-action.js', 'text/javascript'],
};

/**
 * The local Slack sandbox, Medic's embedded default when no Slack token is set: a loopback Slack
 * Web API for the real adapter, plus a page that renders the channel from the same Block Kit JSON
 * and sends the same signed interactions Slack would. Loopback only (request-guard.ts).
 */
export async function createSlackSandbox(options: SlackSandboxOptions): Promise<SlackSandbox> {
  const state = new SandboxState({ id: options.channelId ?? 'C0INCIDENTS', name: options.channelName ?? 'incidents' }, (options.otherChannels ?? []).map((name) => ({ id: sandboxChannelId(name), name: name.replace(/^#/, '') })));
  const history = options.history && createSandboxHistory({ ...options.history, channel: state.channel.id });
  if (history) state.restore(await history.load());
  let baseUrl = '';
  const deps: PageDeps = {
    state,
    baseUrl: () => baseUrl,
    signingSecret: options.signingSecret,
    medicEventsUrl: typeof options.medicEventsUrl === 'string' ? () => options.medicEventsUrl as string : options.medicEventsUrl,
    users: options.users ?? SANDBOX_USERS,
    command: options.command ?? '/medic',
  };

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const refused = refuseRequest(req, { pageAction: url.pathname.startsWith('/sandbox/') && req.method !== 'GET' });
    if (refused) return sendJson(res, 403, { ok: false, error: refused });
    const api = /^\/api\/([a-zA-Z.]+)$/.exec(url.pathname);
    if (req.method === 'POST' && api?.[1]) {
      const args = parseArgs(await readBody(req), req.headers['content-type']);
      const reply = callWebApi(state, options.botToken, api[1], req.headers.authorization, args, baseUrl);
      // Saved before Medic hears ok: a card ts it records is never one a restart would lose.
      await history?.save(state);
      return sendJson(res, reply.status, reply.body, reply.headers);
    }
    const respond = /^\/respond\/([\w-]+)$/.exec(url.pathname);
    if (req.method === 'POST' && respond?.[1]) {
      const body = parseArgs(await readBody(req), 'application/json');
      const applied = applyResponse(state, respond[1], body);
      await history?.save(state);
      return applied ? sendJson(res, 200, { ok: true }) : sendJson(res, 404, { ok: false, error: 'used_url' });
    }
    // The upload URL files.getUploadURLExternal handed out: like Slack's, its secret is the credential.
    const upload = /^\/upload\/v1\/(F[A-Z0-9]+)\/([a-f0-9]{32})$/.exec(url.pathname);
    if (req.method === 'POST' && upload?.[1] && upload[2]) {
      let body: Buffer;
      try {
        body = await readBytes(req, MAX_FILE_BYTES + 64 * 1024);
      } catch (error) {
        if (error instanceof BodyTooLarge) return sendJson(res, 413, { ok: false, error: 'file_too_large' });
        throw error;
      }
      const bytes = uploadedBytes(body, req.headers['content-type']);
      if (!bytes) return sendJson(res, 400, { ok: false, error: 'invalid_multipart' });
      const stored = state.files.store(upload[1], upload[2], bytes);
      if (!stored) return sendJson(res, 404, { ok: false, error: 'upload_url_not_found' });
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      return void res.end(`OK - ${bytes.length}`);
    }
    const shared = /^\/sandbox\/files\/(F[A-Z0-9]+)\/[^/]+$/.exec(url.pathname);
    if (req.method === 'GET' && shared?.[1]) {
      // The page's own pictures: another site may not embed (or probe) what the workspace shares.
      if (req.headers['sec-fetch-site'] === 'cross-site') return sendJson(res, 403, { ok: false, error: 'cross_site' });
      return serveSharedFile(state, shared[1], res);
    }
    if (req.method === 'GET' && url.pathname === '/healthz') return sendJson(res, 200, { ...HEALTH_BODY, part: 'slack sandbox' });
    if (req.method === 'GET' && url.pathname === '/sandbox/state') return sendJson(res, 200, pageState(deps, url.searchParams.get('user') ?? ''));
    if (url.pathname === '/sandbox/merge') {
      const merge = { state, users: deps.users, localRemotes: options.localRemotes };
      if (req.method === 'GET') return sendJson(res, 200, { available: mergeAvailable(merge) });
      if (req.method === 'POST') return handleMerge(merge, parseArgs(await readBody(req), 'application/json'), res).then(() => history?.save(state));
    }
    const action = /^\/sandbox\/(click|submit|close|command)$/.exec(url.pathname);
    if (req.method === 'POST' && action?.[1]) {
      await handlePageAction(deps, action[1], parseArgs(await readBody(req), 'application/json'), res);
      return history?.save(state);
    }
    if (req.method === 'GET' && (await serveEmoji(url.pathname, res))) return;
    const file = req.method === 'GET' ? PAGE_FILES[url.pathname] : undefined;
    if (file) return sendFile(res, await readFile(join(installDir(), 'src/sandbox/page', file[0]), 'utf8'), file[1]);
    sendJson(res, 404, { ok: false, error: 'not_found' });
  }

  /** A shared file's bytes (a file not shared yet, or forgotten past the bound, is not found). */
  function serveSharedFile(current: SandboxState, id: string, res: ServerResponse): void {
    const file = current.files.get(id);
    if (!file?.completed || !file.bytes) return sendJson(res, 404, { ok: false, error: 'file_not_found' });
    const image = file.mimetype.startsWith('image/');
    res.writeHead(200, {
      'content-type': file.mimetype,
      'content-length': String(file.bytes.length),
      'cache-control': 'private, max-age=3600',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      // Anything but a picture is a download, never a page of the sandbox's origin.
      ...(image ? {} : { 'content-disposition': 'attachment' }),
    });
    res.end(file.bytes);
  }

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: error instanceof Error ? error.message : 'internal_error' });
      else res.end();
    });
  });
  // Clients keep connections alive; a server closing an idle socket just as a client reuses it makes
  // a spurious ECONNRESET, so the sandbox keeps idle sockets longer than any client here does.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const host = options.host ?? '127.0.0.1';
  assertLoopbackHost(host);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  baseUrl = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  return {
    url: `${baseUrl}/`,
    apiUrl: `${baseUrl}/api/`,
    channelId: state.channel.id,
    state,
    injectFault: (fault) => state.faults.push({ ...fault, times: fault.times ?? 1 }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
