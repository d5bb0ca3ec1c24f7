import { ErrorCode, MedicError } from '../domain/errors.js';
import { HEALTH_BODY } from '../http/ops-routes.js';


async function medicAnswersAt(host: string, port: number, timeoutMs: number): Promise<boolean> {
  try {
    const response = await fetch(`http://${host.includes(':') ? `[${host}]` : host}:${port}/healthz`, { signal: AbortSignal.timeout(timeoutMs) });
    const body = (await response.json()) as { service?: unknown };
    return body.service === HEALTH_BODY.service;
  } catch {
    return false;
  }
}

/**
 * A listen error as the operator's next step: for a port in use, which variable moves Medic
 * elsewhere and whether the process already there is another Medic (its `/healthz` says so).
 * Other errors pass through unchanged.
 */
export async function explainListenError(error: unknown, where: { host: string; port: number; variable: string; timeoutMs?: number }): Promise<unknown> {
  if ((error as { code?: unknown } | undefined)?.code !== 'EADDRINUSE') return error;
  const another = await medicAnswersAt(where.host, where.port, where.timeoutMs ?? 1_000);
  const who = another ? 'another Medic is already running there (stop it first, or' : 'another program listens there (stop it, or';
  return new MedicError(ErrorCode.ConfigInvalid, `port ${where.port} on ${where.host} is in use: ${who} set ${where.variable} to a free port; 0 picks one).`, { cause: error });
}

/** Runs a listen, turning a port in use into `explainListenError`'s message. */
export async function listenOrExplain<T>(listen: () => Promise<T>, where: { host: string; port: number; variable: string }): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    throw await explainListenError(error, where);
  }
}
