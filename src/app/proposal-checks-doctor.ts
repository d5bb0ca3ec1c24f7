import type { Isolation } from '../adapters/git/run-check.js';
import type { ServiceCatalog } from '../ports/service-catalog.js';
import type { Checkable, ServiceCheck } from '../ports/service-check.js';

/**
 * `doctor`'s line for the proposal checks: which services check their proposals, and the network
 * isolation this machine grants their commands. A catalog that declares checks on a machine where
 * no network namespace can be made is reported as not working: the commands would run online.
 */
export function createProposalChecksCheck(catalog: ServiceCatalog, isolation: () => Isolation): Checkable {
  return {
    async check(): Promise<ServiceCheck> {
      const services = catalog.current().services;
      const checked = services.filter((s) => s.check).map((s) => s.name);
      const unchecked = services.filter((s) => !s.check).map((s) => s.name);
      const found = isolation();
      const which = [checked.length > 0 ? `checked: ${checked.join(', ')}` : 'no service names a check command', unchecked.length > 0 && checked.length > 0 ? `not checked: ${unchecked.join(', ')}` : undefined].filter(Boolean).join('; ');
      return { name: 'proposal checks', adapter: 'bash, ulimit -v, unshare', ok: checked.length === 0 || found.prefix.length > 0, detail: `${which}; ${found.label}` };
    },
  };
}
