/**
 * Where an operator's Split is kept: per service and family. Two services can mine the same
 * family id from alike messages; one service's split must not divide another's incidents.
 */
export function splitDecisionKey(service: string, family: string): string {
  return `${service}\u0000${family}`;
}
