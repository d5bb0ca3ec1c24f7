import type { ActionPolicy, ArgSpec } from './policy.js';

function describeArg(name: string, spec: ArgSpec): string {
  const shape = spec.type === 'slug' ? 'an explicit name' : spec.type === 'int' ? `an integer ${spec.min}–${spec.max}` : `one of ${spec.values.join(', ')}`;
  return `${name}${spec.optional ? '?' : ''}: ${shape}`;
}

const NEEDS = { READ_ONLY: 'runs automatically', MUTATING: 'needs an approver', DESTRUCTIVE: 'needs two people (step-up)' } as const;

/**
 * The recommend prompt's list of operational actions, one line each, built from the reviewed
 * policy so the model only sees tools that exist here, with their argument shapes.
 */
export function describeActionCatalog(actions: readonly ActionPolicy[]): string[] {
  return actions.map((action) => {
    const args = Object.entries(action.args).map(([name, spec]) => describeArg(name, spec)).join('; ');
    return `${action.name} (${action.effect}, ${NEEDS[action.effect]}): ${action.summary}. Arguments: ${args || 'none'}.`;
  });
}
