import type { Severity } from '../event.js';
import type { IncidentRoute } from '../incident.js';
import type { Catalog, CatalogService, ServiceRoute } from './catalog.js';

/** The declared service a log's service name (the name itself or one of its aliases) belongs to. */
export function findService(catalog: Catalog, logName: string): CatalogService | undefined {
  const name = logName.trim().toLowerCase();
  return catalog.services.find((s) => s.name === name || s.aliases.some((a) => a.toLowerCase() === name));
}

/**
 * Pure: where an incident of `logName` goes. A declared service brings its channel and repository;
 * an undeclared one goes to the default channel with no repository — unless the catalog routes
 * unknown services to a declared one (the implicit one-service catalog does).
 */
export function resolveService(catalog: Catalog, logName: string): ServiceRoute {
  const service = findService(catalog, logName) ?? (catalog.unknownRoutesTo ? catalog.services.find((s) => s.name === catalog.unknownRoutesTo) : undefined);
  if (!service) return { known: false, name: logName, channel: catalog.defaultChannel };
  const repository = service.repository === undefined ? undefined : catalog.repositories.find((r) => r.id === service.repository);
  return { known: true, service, channel: service.channel, ...(repository ? { repository } : {}) };
}

const RANK: Record<Severity, number> = { debug: 0, info: 1, warning: 2, error: 3, critical: 4 };

/** Whether an event of `severity` may open an incident for the route's service (unknown services: error and up). */
export function opensIncident(route: ServiceRoute, severity: Severity): boolean {
  return RANK[severity] >= RANK[route.known ? route.service.minSeverity : 'error'];
}

/**
 * Whether a policy action may be proposed for the route's service. An unknown service keeps the
 * operator's policy as it is: the gateway still gates each action, and only global approvers
 * can approve one there.
 */
export function allowsAction(route: ServiceRoute, action: string): boolean {
  return !route.known || route.service.actions === undefined || route.service.actions.includes(action);
}

/** The route as the incident record keeps it. */
export function incidentRouteOf(route: ServiceRoute): IncidentRoute {
  if (!route.known) return { service: route.name, known: false, channel: route.channel };
  return {
    service: route.service.name, known: true, channel: route.channel,
    ...(route.repository ? { repository: route.repository.id } : {}),
    ...(route.service.path ? { path: route.service.path } : {}),
    ...(route.service.owner ? { owner: route.service.owner } : {}),
  };
}
