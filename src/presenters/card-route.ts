import type { Incident } from '../domain/incident.js';
import { generated, untrusted } from './mrkdwn.js';

/**
 * The card's word on the service catalog: an unknown service is said to be unknown (and why it
 * gets no fix); a known one names its repository (and directory in a monorepo) and owner, and the
 * log's own name for the service when the catalog knows it by another.
 */
export function presentRoute(incident: Pick<Incident, 'route' | 'service'>): string | undefined {
  const route = incident.route;
  if (!route) return undefined;
  if (!route.known) return `❔ service \`${untrusted(route.service, 80)}\` is not in the service catalog: no repository, so no fix`;
  const where = route.repository ? `📁 \`${generated(route.repository, 64)}${route.path ? `/${generated(route.path, 120)}` : ''}\`` : '📁 no repository';
  const logged = incident.service !== route.service ? `logged as \`${untrusted(incident.service, 64)}\`` : '';
  return [`service \`${generated(route.service, 64)}\``, logged, where, route.owner ? `owner ${untrusted(route.owner, 80)}` : ''].filter(Boolean).join(' · ');
}

/** `review requested from @alice, @acme/payments` — the code owners of the changed file. */
export function presentReviewers(incident: Pick<Incident, 'fix'>): string {
  const reviewers = incident.fix?.pullRequest?.reviewers ?? [];
  return reviewers.length === 0 ? '' : ` · review requested from ${reviewers.slice(0, 8).map((r) => untrusted(r, 80)).join(', ')}`;
}
