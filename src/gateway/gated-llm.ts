import type { Llm, LlmResponse } from '../ports/llm.js';
import type { ToolGateway } from './gateway.js';
import { unwrapResult } from './gated-ports.js';
import type { InvocationContext } from './registry/effect.js';

/**
 * The Llm port as a gateway call (`llm.complete`): the analysts, written against the plain port,
 * get the gateway's deadline, the model's breaker and an audit record by wiring alone. The answer
 * the handler validated against the named schema is parsed again with the caller's own.
 */
export function createGatedLlm(gateway: ToolGateway, llm: Llm, context: InvocationContext): Llm {
  return {
    check: () => llm.check(),
    async complete(request) {
      const { schema, signal: _ignored, ...args } = request;
      const response = unwrapResult('llm.complete', await gateway.invoke({ tool: 'llm.complete', args }, context)) as LlmResponse<unknown>;
      return { ...response, value: schema.parse(response.value) };
    },
  };
}
