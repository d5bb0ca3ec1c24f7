import { ErrorEvent } from '../../src/domain/event.js';
import { createIncident, type Incident } from '../../src/domain/incident.js';

/** An ErrorEvent with sensible defaults; override what the test is about. */
export function buildEvent(overrides: Partial<ErrorEvent> = {}): ErrorEvent {
  return ErrorEvent.parse({
    id: `file:shop.jsonl@${Math.floor(Math.random() * 1e9)}`,
    source: 'file',
    time: '2026-11-30T09:00:00.000Z',
    service: 'checkout',
    severity: 'error',
    message: 'Payment declined for order 1234',
    raw: 'Payment declined for order 1234',
    correlationIds: { txn_id: 'txn-1' },
    fields: {},
    ...overrides,
  });
}

export function buildIncident(overrides: Partial<Incident> = {}): Incident {
  const event = overrides.firstEvent ?? buildEvent();
  return { ...createIncident({ id: 'inc-test', fingerprint: 'fp-test', title: 'Payment declined for order <*>', event, at: '2026-11-30T09:00:01.000Z' }), ...overrides };
}
