import type { Embedder } from '../ports/retrieval.js';
import type { Checkable, ServiceCheck } from '../ports/service-check.js';

/**
 * The sandbox is part of Medic, not a configured service: `npm start` serves it. When it is not
 * running (a CLI run on its own), `doctor` says so instead of reporting a broken Slack.
 */
export function createSandboxCheck(apiUrl: string, botToken: string): Checkable {
  return {
    async check(): Promise<ServiceCheck> {
      const adapter = `local Slack sandbox ${apiUrl}`;
      try {
        const response = await fetch(`${apiUrl}auth.test`, { method: 'POST', headers: { authorization: `Bearer ${botToken}` }, signal: AbortSignal.timeout(2_000) });
        const body = (await response.json()) as { ok?: boolean; error?: string };
        return body.ok
          ? { name: 'chat', adapter, ok: true, detail: 'the sandbox answers; open its page to see the cards' }
          : { name: 'chat', adapter, ok: false, detail: `the sandbox refused auth.test: ${body.error ?? response.status}` };
      } catch {
        return { name: 'chat', adapter, ok: true, idle: true, detail: 'not running now: `npm start` serves it (set SLACK_BOT_TOKEN for a real workspace)' };
      }
    },
  };
}

/** The embedder answers one short text with a vector of the size it declares. */
export function createEmbedderCheck(embedder: Embedder): Checkable {
  return {
    async check(): Promise<ServiceCheck> {
      try {
        const [vector] = await embedder.embed(['doctor: connection refused']);
        const ok = vector?.length === embedder.dimension;
        return { name: 'embedder', adapter: embedder.id, ok, detail: ok ? `${embedder.dimension}-dimensional vectors` : `expected ${embedder.dimension} dimensions, got ${vector?.length ?? 0}` };
      } catch (error) {
        return { name: 'embedder', adapter: embedder.id, ok: false, detail: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}
