import { randomUUID } from 'node:crypto';
import { SandboxFiles } from './sandbox-files.js';

export interface SandboxMessage {
  ts: string;
  channel: string;
  /** The poster: the bot's user id, or a user's. */
  user: string;
  botId?: string;
  text: string;
  blocks: unknown[];
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
  threadTs?: string;
  /** Set for ephemeral messages: only this user sees them, and history never returns them. */
  ephemeralFor?: string;
  edited?: boolean;
  /** Files shared with the message (files.completeUploadExternal): ids into `SandboxState.files`. */
  files?: { id: string; name: string; title: string; mimetype: string; altText?: string }[];
}

export interface SandboxView {
  id: string;
  userId: string;
  hash: string;
  view: Record<string, unknown>;
  errors?: Record<string, string>;
}

export interface Fault {
  method: string;
  /** HTTP status (429, 500…); when absent, a 200 `{ok:false,error}` platform error. */
  status?: number;
  error?: string;
  retryAfterSeconds?: number;
  times: number;
}

/** Ephemeral replies kept in memory (channel messages are capped by the saved history's limit). */
const MAX_EPHEMERALS = 200;
/**
 * A long-running sandbox records no more than these: the newest Web API calls (tests read the
 * recent ones), and the trigger ids and response_urls of recent clicks (Slack's expire within
 * minutes; Medic answers within seconds), so 20k card updates cost no growing memory.
 */
export const MAX_RECORDED_CALLS = 10_000;
export const MAX_TRIGGERS = 1_000;
export const MAX_RESPONSE_URLS = 1_000;

/** Drops a map's oldest entries past `cap` (a Map iterates in insertion order). */
function capMap<K, V>(map: Map<K, V>, cap: number): void {
  for (const key of map.keys()) {
    if (map.size <= cap) return;
    map.delete(key);
  }
}


/**
 * The sandbox's workspace: its channels' messages and threads (the first channel is Medic's
 * default; the service catalog may name more), ephemerals, open modals, trigger ids and
 * response_urls. A version counter lets the page re-render only when something changed.
 */
export class SandboxState {
  readonly messages: SandboxMessage[] = [];
  readonly views = new Map<string, SandboxView>();
  readonly triggers = new Map<string, string>();
  readonly responseUrls = new Map<string, { userId: string; channel: string; messageTs?: string }>();
  readonly faults: Fault[] = [];
  /** Uploaded files (bounded, in memory: a restarted sandbox shows a forgotten picture's alt text). */
  readonly files = new SandboxFiles();
  /** Every Web API call received, for tests: method and parsed arguments (never the token). */
  readonly calls: { method: string; args: Record<string, unknown> }[] = [];
  version = 0;
  /** Messages changed or deleted since the history last saved them (see sandbox-history.ts). */
  readonly changed = new Set<string>();
  readonly deleted = new Set<string>();
  private lastTs = 0;

  readonly channels: readonly { id: string; name: string }[];

  constructor(readonly channel: { id: string; name: string }, others: readonly { id: string; name: string }[] = []) {
    this.channels = [channel, ...others.filter((c) => c.id !== channel.id && c.name !== channel.name)];
  }

  /** Slack ts: seconds.micro, strictly increasing, so "oldest wins" comparisons are exact. */
  nextTs(now = Date.now()): string {
    const micros = Math.max(now * 1_000, this.lastTs + 1);
    this.lastTs = micros;
    return `${Math.floor(micros / 1_000_000)}.${String(micros % 1_000_000).padStart(6, '0')}`;
  }

  touch(): void {
    this.version++;
  }

  add(message: Omit<SandboxMessage, 'ts'>): SandboxMessage {
    const stored = { ...message, ts: this.nextTs() };
    this.messages.push(stored);
    if (!stored.ephemeralFor) this.changed.add(stored.ts);
    else this.forgetOldEphemerals();
    this.touch();
    return stored;
  }

  /** Ephemerals are never saved; past the cap the oldest go, so a long-running sandbox stays bounded. */
  private forgetOldEphemerals(): void {
    let ephemerals = 0;
    for (const m of this.messages) if (m.ephemeralFor) ephemerals++;
    for (let i = 0; ephemerals > MAX_EPHEMERALS && i < this.messages.length; ) {
      if (this.messages[i]?.ephemeralFor) {
        this.messages.splice(i, 1);
        ephemerals--;
      } else i++;
    }
  }

  /** Records an edit in place (chat.update, replace_original) for the history to save. */
  edited(message: SandboxMessage): void {
    if (!message.ephemeralFor) this.changed.add(message.ts);
    this.touch();
  }

  remove(message: SandboxMessage): void {
    const index = this.messages.indexOf(message);
    if (index >= 0) this.messages.splice(index, 1);
    this.changed.delete(message.ts);
    if (!message.ephemeralFor) this.deleted.add(message.ts);
    this.touch();
  }

  /** Restores saved messages (oldest first) after a restart; new ts stay above the newest. */
  restore(messages: SandboxMessage[]): void {
    this.messages.unshift(...messages);
    for (const m of messages) {
      const [sec = '0', micro = '0'] = m.ts.split('.');
      this.lastTs = Math.max(this.lastTs, Number(sec) * 1_000_000 + Number(micro));
    }
    this.touch();
  }

  /** Keeps the newest `limit` channel messages (top level and replies); older ones are forgotten. */
  trim(limit: number): void {
    const kept = this.messages.filter((m) => !m.ephemeralFor);
    for (const old of kept.slice(0, Math.max(0, kept.length - limit))) this.remove(old);
  }

  find(ts: string): SandboxMessage | undefined {
    return this.messages.find((m) => m.ts === ts && !m.ephemeralFor);
  }

  newTrigger(userId: string): string {
    const id = `${Date.now()}.${randomUUID().slice(0, 8)}`;
    this.triggers.set(id, userId);
    capMap(this.triggers, MAX_TRIGGERS);
    return id;
  }

  recordCall(call: { method: string; args: Record<string, unknown> }): void {
    this.calls.push(call);
    if (this.calls.length > MAX_RECORDED_CALLS) this.calls.splice(0, this.calls.length - MAX_RECORDED_CALLS);
  }

  addResponseUrl(token: string, target: { userId: string; channel: string; messageTs?: string }): void {
    this.responseUrls.set(token, target);
    capMap(this.responseUrls, MAX_RESPONSE_URLS);
  }

  takeFault(method: string): Fault | undefined {
    const fault = this.faults.find((f) => f.method === method && f.times > 0);
    if (fault) fault.times--;
    return fault;
  }

  resolveChannel(channel: unknown): string | undefined {
    if (typeof channel !== 'string') return undefined;
    const name = channel.replace(/^#/, '');
    return this.channels.find((c) => channel === c.id || name === c.name)?.id;
  }
}

/** A sandbox channel id for a channel name: `loyalty-oncall` → `C0LOYALTYONCALL` (Slack ids are C + capitals and digits). */
export function sandboxChannelId(name: string): string {
  return `C0${name.replace(/^#/, '').toUpperCase().replace(/[^A-Z0-9]/g, '').slice(0, 18) || 'CHANNEL'}`;
}
