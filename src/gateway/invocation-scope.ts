import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { InvocationContext } from './registry/effect.js';

const scope = new AsyncLocalStorage<{ incidentId?: string; traceId: string }>();

/** Runs a job's work in a scope, so every gateway call inside it is audited under its incident and trace. */
export function inInvocationScope<T>(incidentId: string | undefined, fn: () => Promise<T>): Promise<T> {
  return scope.run({ incidentId, traceId: randomUUID() }, fn);
}

/**
 * The pipeline's invocation context, read at call time from the current scope. The caller is
 * always the pipeline: user identities enter through the use-cases, never through a job.
 */
export function createPipelineContext(): InvocationContext {
  return {
    caller: { kind: 'pipeline' },
    get incidentId() {
      return scope.getStore()?.incidentId;
    },
    get traceId() {
      return scope.getStore()?.traceId;
    },
  };
}
