/**
 * A loopback smart-HTTP git server: `git http-backend` (CGI) behind node:http, demanding Basic
 * credentials like GitHub does (401 + WWW-Authenticate without them). It records the
 * Authorization header of every request so tests can prove where credentials went, and can
 * refuse pushes to simulate a remote that is down for writes.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface GitHttpRequest {
  method: string;
  path: string;
  authorized: boolean;
  authorization?: string;
}

export interface LoopbackGitServer {
  /** http://127.0.0.1:PORT/<name> for a bare repository `<root>/<name>`. */
  url(name: string): string;
  requests: GitHttpRequest[];
  /** When true, pushes (git-receive-pack) answer 503. */
  rejectPushes: boolean;
  close(): Promise<void>;
}

const BACKEND = join(execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim(), 'git-http-backend');

export async function startGitHttpServer(options: { root: string; username?: string; token: string }): Promise<LoopbackGitServer> {
  const expected = `Basic ${Buffer.from(`${options.username ?? 'x-access-token'}:${options.token}`).toString('base64')}`;
  const requests: GitHttpRequest[] = [];
  const state = { rejectPushes: false };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://loopback');
    const authorization = req.headers.authorization;
    const authorized = authorization !== undefined && authorization.toLowerCase() === expected.toLowerCase();
    requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, authorized, authorization });
    if (!authorized) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="loopback git"', 'content-type': 'text/plain' });
      res.end('Authentication required\n');
      return;
    }
    const isPush = url.searchParams.get('service') === 'git-receive-pack' || url.pathname.endsWith('/git-receive-pack');
    if (isPush && state.rejectPushes) {
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end('pushes are unavailable\n');
      return;
    }
    const child = spawn(BACKEND, [], {
      env: {
        PATH: process.env.PATH ?? '',
        GIT_PROJECT_ROOT: options.root,
        GIT_HTTP_EXPORT_ALL: '1',
        // http-backend enables receive-pack only for an authenticated user.
        REMOTE_USER: 'medic-test',
        REMOTE_ADDR: '127.0.0.1',
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] } : {}),
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
      },
    });
    req.pipe(child.stdin);
    let head = Buffer.alloc(0);
    let headersSent = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersSent) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString('utf8').split('\r\n')) {
        const i = line.indexOf(':');
        const name = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
        else if (name) headers[name] = value;
      }
      res.writeHead(status, headers);
      headersSent = true;
      res.write(head.subarray(end + 4));
    });
    child.on('close', () => {
      if (!headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (name) => `http://127.0.0.1:${port}/${name}`,
    requests,
    get rejectPushes() {
      return state.rejectPushes;
    },
    set rejectPushes(value: boolean) {
      state.rejectPushes = value;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
