import type { ErrorEvent } from './event.js';

/**
 * Fields that name the person an event happened to, as loggers and tracing conventions write them
 * (OpenTelemetry's `enduser.id`, ECS's `user.id`, the common camel and snake cases). The first
 * field found in the sampled events is the one counted: mixing two could count one person twice.
 */
export const USER_FIELDS = ['userId', 'user_id', 'user.id', 'enduser.id', 'user', 'customerId', 'customer_id', 'customer.id', 'customer', 'accountId', 'account_id'] as const;

export interface AffectedUsers {
  field: string;
  /** Distinct values of that field among the sampled events. */
  distinct: number;
  /** Events that carried it, of `sampled`. */
  carrying: number;
  sampled: number;
}

/** Who was hit, when an event field says so; undefined when none of the sampled events names anyone. */
export function affectedUsers(events: readonly ErrorEvent[]): AffectedUsers | undefined {
  const valueOf = (event: ErrorEvent, field: string) => event.fields[field] ?? event.correlationIds[field];
  const field = USER_FIELDS.find((name) => events.some((event) => (valueOf(event, name) ?? '') !== ''));
  if (!field) return undefined;
  const values = events.map((event) => valueOf(event, field)).filter((v): v is string => v !== undefined && v !== '');
  return { field, distinct: new Set(values).size, carrying: values.length, sampled: events.length };
}
