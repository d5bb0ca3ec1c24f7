import { describe, expect, it } from 'vitest';
import { createOpsRoutes } from '../../src/http/ops-routes.js';
import { startHttpServer } from '../../src/http/start-http-server.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { milestoneStartMs, observeTimeTo, secondsToMilestone } from '../../src/observability/time-to.js';
import { buildEvent, buildIncident } from '../support/builders.js';

const opened = (firstEventTime: string) => buildIncident({ firstEvent: buildEvent({ time: firstEventTime }), createdAt: '2026-11-30T09:05:00.000Z' });

describe('the time to each milestone', () => {
  it("starts at the first event's log time, or at the opening when that stamp is a replay's or skewed", () => {
    expect(milestoneStartMs(opened('2026-11-30T09:00:00.000Z'))).toBe(Date.parse('2026-11-30T09:00:00.000Z'));
    // Old logs read late (more than a day before the opening) and a stamp after the opening count from the opening.
    expect(milestoneStartMs(opened('2026-11-28T09:00:00.000Z'))).toBe(Date.parse('2026-11-30T09:05:00.000Z'));
    expect(milestoneStartMs(opened('2026-11-30T09:06:00.000Z'))).toBe(Date.parse('2026-11-30T09:05:00.000Z'));
    expect(secondsToMilestone(opened('2026-11-30T09:00:00.000Z'), '2026-11-30T09:01:30.000Z')).toBe(90);
  });

  it('is exposed on /metrics per service (the catalog name) and milestone', async () => {
    const metrics = createMetrics();
    const incident = { ...opened('2026-11-30T09:00:00.000Z'), route: { service: 'shop-api', known: true, channel: 'C1' } };
    observeTimeTo(metrics, incident, 'card', '2026-11-30T09:00:20.000Z');
    observeTimeTo(metrics, incident, 'decision', '2026-11-30T09:10:00.000Z');
    const http = await startHttpServer(0, [createOpsRoutes({ registry: metrics.registry, ready: async () => [] })]);
    try {
      const body = await (await fetch(`http://127.0.0.1:${http.port}/metrics`)).text();
      expect(body).toContain('# TYPE medic_time_to_seconds histogram');
      expect(body).toContain('medic_time_to_seconds_bucket{le="30",service="shop-api",milestone="card"} 1');
      expect(body).toContain('medic_time_to_seconds_sum{service="shop-api",milestone="decision"} 600');
      expect(body).toContain('medic_time_to_seconds_count{service="shop-api",milestone="decision"} 1');
    } finally {
      await http.close();
    }
  });
});
