import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { ClickFollowUps } from '../../ports/click-follow-ups.js';
import { isFollowUpClick } from '../../use-cases/answer-click.js';
import { replayKeys } from './delivery-ledger.js';
import { clickedMessage } from './listeners/listener-deps.js';
import { MAX_CLOCK_SKEW_S } from './request-window.js';

const EVENTS_PATH = '/slack/events';
const FORM = 'application/x-www-form-urlencoded';
/** Bigger bodies go to Bolt untouched (a block_actions payload carries the whole clicked message). */
const MAX_BODY_BYTES = 1024 * 1024;

type Buffered = IncomingMessage & { rawBody?: Buffer };

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Slack's v0 signature over the raw bytes, within five minutes of now: the check Bolt makes. */
export function isSignedBySlack(req: IncomingMessage, raw: Buffer, signingSecret: string, nowMs: number): boolean {
  const signature = req.headers['x-slack-signature'];
  const timestamp = req.headers['x-slack-request-timestamp'];
  if (typeof signature !== 'string' || typeof timestamp !== 'string' || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > MAX_CLOCK_SKEW_S) return false;
  const expected = Buffer.from(`v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:`).update(raw).digest('hex')}`);
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The one button click a follow-up answers, or undefined for anything Bolt should route. */
function followUpClick(raw: Buffer): Record<string, unknown> | undefined {
  const payload = new URLSearchParams(raw.toString('utf8')).get('payload');
  if (!payload) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    return undefined;
  }
  const b = body as { type?: unknown; actions?: unknown; user?: { id?: unknown } };
  if (b.type !== 'block_actions' || !Array.isArray(b.actions) || b.actions.length !== 1 || typeof b.user?.id !== 'string') return undefined;
  const action = b.actions[0] as { type?: unknown; action_id?: unknown };
  if (action.type !== 'button' || typeof action.action_id !== 'string' || !isFollowUpClick(action.action_id)) return undefined;
  return body as Record<string, unknown>;
}

/**
 * The web role's whole job for a card click a worker answers (Approve, Run, Request step-up,
 * feedback): verify the signature and its date, queue what the request proved with its replay
 * keys (the worker claims them, so a retry or replay is acked and dropped there), answer 200 —
 * without Bolt's middleware chain, its listener matching or its ack machinery on the loop.
 * Anything else, anything unverified (Bolt then refuses it with its 401), or a click the queue
 * cannot take, goes to Bolt with the body already read, exactly as before.
 */
export function queueClicksFirst(inner: RequestListener, options: { signingSecret: string; followUps: ClickFollowUps; now?: () => number }): RequestListener {
  const now = options.now ?? Date.now;
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || req.url?.split('?')[0] !== EVENTS_PATH || req.headers['content-type'] !== FORM) {
      inner(req, res);
      return;
    }
    const buffered = req as Buffered;
    const toBolt = () => inner(buffered, res);
    void (async () => {
      const raw = buffered.rawBody ?? (await readBody(req));
      buffered.rawBody = raw;
      if (raw.length > MAX_BODY_BYTES || !isSignedBySlack(req, raw, options.signingSecret, now())) return toBolt();
      const body = followUpClick(raw);
      if (!body) return toBolt();
      const user = body.user as { id: string; name?: unknown; username?: unknown };
      const action = (body.actions as { action_id: string; value?: unknown }[])[0]!;
      const name = typeof user.name === 'string' ? user.name : typeof user.username === 'string' ? user.username : undefined;
      const { channel } = clickedMessage(body);
      // One round trip before the ack: the worker claims the replay keys before it answers.
      const click = {
        actionId: action.action_id, value: typeof action.value === 'string' ? action.value : '', user: { id: user.id, ...(name ? { name } : {}) },
        ...(channel ? { channel } : {}), at: now(), replayKeys: replayKeys(body, String(req.headers['x-slack-signature'])),
      };
      // A click the queue cannot take goes to Bolt, which claims it and answers it here.
      if (!(await options.followUps.enqueue(click).then(() => true, () => false))) return toBolt();
      res.writeHead(200);
      res.end();
    })().catch(() => {
      if (!res.headersSent) {
        res.writeHead(500);
        res.end();
      }
    });
  };
}
