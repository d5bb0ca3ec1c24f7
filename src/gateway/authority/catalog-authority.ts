import type { ServiceRoute } from '../../domain/catalog/catalog.js';
import type { Authority, AuthorityScope, Permissions } from '../../ports/authority.js';
import { createListMembership, isUnusableId, type ConfiguredAuthorityOptions } from './authority.js';

export interface CatalogAuthorityOptions extends ConfiguredAuthorityOptions {
  /** The service route of an incident, from the catalog in force (re-read on every decision). */
  routeOf(incidentId: string): Promise<ServiceRoute>;
  /** The route of a service by name (a family that has no incident yet); without it such a scope is global only. */
  routeOfService?(service: string): ServiceRoute;
}

/**
 * Authority per service: the global lists (MEDIC_APPROVERS, MEDIC_ELEVATED_APPROVERS,
 * MEDIC_READERS) hold everywhere; a service's own approvers, elevated approvers and readers hold
 * only on that service's incidents. The service comes from the incident record and the catalog,
 * the person from the verified identity — never from a button value — so a payments approver
 * clicking Approve on a checkout card is refused.
 */
export function createCatalogAuthority(options: CatalogAuthorityOptions): Authority {
  const listed = createListMembership(options);
  return {
    async resolve(userId: string, scope?: AuthorityScope): Promise<Permissions> {
      if (isUnusableId(userId)) return { approver: false, elevated: false, reader: false };
      const route = scope?.incidentId !== undefined ? await options.routeOf(scope.incidentId) : scope?.service !== undefined ? options.routeOfService?.(scope.service) : undefined;
      const service = route?.known ? route.service : undefined;
      const elevated = (await listed(options.elevatedApprovers, userId)) || (service !== undefined && (await listed(service.elevatedApprovers, userId)));
      const approver = elevated || (await listed(options.approvers, userId)) || (service !== undefined && (await listed(service.approvers, userId)));
      const reader = approver || (await listed(options.readers ?? [], userId)) || (service !== undefined && (await listed(service.readers, userId)));
      return { approver, elevated, reader };
    },
  };
}
