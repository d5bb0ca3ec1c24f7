import type { ProposedAction } from '../../domain/incident.js';
import { redactSecrets } from '../../domain/untrusted/redact.js';
import type { InvokeResult } from '../invoke-result.js';

const MAX_OUTPUT = 1_500;

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** The automation's answer is untrusted text: secrets are redacted before it is stored or shown. */
export function presentActionOutput(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? null, null, 1);
  return cut(redactSecrets(text ?? ''), MAX_OUTPUT);
}

/** What is kept on the incident about one gateway call. */
export function toActionOutcome(result: InvokeResult, at: string, by?: string): NonNullable<ProposedAction['outcome']> {
  const base = { status: result.status, at, ...(by ? { by } : {}) };
  switch (result.status) {
    case 'executed':
      return { ...base, output: presentActionOutput(result.value), ...(result.fromCache ? { reason: 'served from a recent cache: the upstream is degraded' } : {}) };
    case 'proposed':
      return { ...base, reason: cut(result.reason, 500) };
    case 'denied':
    case 'failed':
      return { ...base, reason: cut(`${redactSecrets(result.reason)} (${result.code})`, 500) };
  }
}
