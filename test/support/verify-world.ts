import { startVerification, type VerifySettings } from '../../src/domain/verification.js';
import type { DeployMarker, MergeState } from '../../src/ports/code.js';
import type { IncidentStore } from '../../src/ports/incident-store.js';
import { ingestEvents } from '../../src/use-cases/ingest-events.js';
import { lookAtFix, type VerifyDeps } from '../../src/use-cases/verify-fix.js';
import { buildEvent } from './builders.js';
import { recordingDeliveries } from './recording-deliveries.js';

export const T0 = Date.parse('2026-12-02T14:00:00.000Z');
export const MIN = 60_000;

/** A fixed incident's verification on a real store: the merge, the deploy and the clock in the test's hands. */
export function verifyWorld(store: () => IncidentStore, settings: VerifySettings = { windowMinutes: 30 }) {
  let now = T0;
  let merge: MergeState = { merged: false };
  let deploy: DeployMarker | undefined;
  const thread = recordingDeliveries();
  let seq = 0;
  const events = (n: number, atMs: number) =>
    Array.from({ length: n }, (_, i) => buildEvent({ id: `e${++seq}`, service: 'checkout', time: new Date(atMs + i * 1000).toISOString(), message: `Payment declined for order ${1000 + i}`, raw: 'x' }));
  const ingest = (n: number, atMs: number) => ingestEvents(events(n, atMs), { store: store(), clock: () => new Date(now), enqueueAnalysis: async () => undefined });
  const deps = (): VerifyDeps => ({
    store: store(), deliveries: thread.deliveries, settingsFor: () => settings,
    pullRequests: { mergeState: async () => merge, deployment: async () => deploy },
    clock: () => new Date(now), logger: { warn: () => undefined, info: () => undefined },
    intervalMs: MIN, maxIntervalMs: 15 * MIN, maxWaitMs: 30 * 86_400_000, regressionHoldMs: 7 * 86_400_000,
  });
  /** An incident of 120 events over the hour before T0, its fix pushed and awaited. */
  async function pushedFix(): Promise<string> {
    await ingest(60, T0 - 60 * MIN);
    await ingest(60, T0 - 30 * MIN);
    const [incident] = await store().list();
    const at = new Date(now).toISOString();
    await store().update(incident!.id, (current) => ({
      incident: { ...current, state: 'fixed', fix: { branch: `fix/${current.id}-20261202140000`, commit: 'abc123', pushStatus: 'pushed' }, verification: startVerification(at, settings) },
      audit: [],
    }));
    return incident!.id;
  }
  /** The pushed fix merged at T0 and verified once its 30 quiet minutes passed; the clock is then T0 + 31 min. */
  async function verifiedFix(deps: Partial<VerifyDeps> = {}): Promise<string> {
    const id = await pushedFix();
    merge = { merged: true, mergedAt: new Date(T0).toISOString() };
    await lookAtFix(id, 0, { ...world.deps(), ...deps });
    now = T0 + 31 * MIN;
    await lookAtFix(id, 1, { ...world.deps(), ...deps });
    return id;
  }
  const world = {
    deps, thread, ingest, pushedFix, verifiedFix,
    at: (ms: number) => void (now = ms),
    merged: (state: MergeState) => void (merge = state),
    deployed: (marker: DeployMarker) => void (deploy = marker),
  };
  return world;
}
