/**
 * Token budgets in Redis, shared by every worker: per incident and per UTC day. A call is refused
 * before it is made when its estimate would cross a limit. Check and charge are separate, so
 * concurrent calls can overshoot by at most one call each: a soft limit, stated as such.
 */
import type { RedisClient } from './connect.js';
import { ErrorCode, MedicError } from '../../domain/errors.js';

export interface TokenLimits {
  /** 0 means unlimited. */
  perIncident: number;
  perDay: number;
}

export interface TokenBudget {
  reserve(incidentId: string | undefined, estimate: number): Promise<void>;
  record(incidentId: string | undefined, tokens: number): Promise<void>;
  spent(incidentId?: string): Promise<{ incident: number; day: number }>;
}

const DAY_TTL_S = 2 * 24 * 3600;
const INCIDENT_TTL_S = 30 * 24 * 3600;

export function createTokenBudget(redis: RedisClient, prefix: string, limits: TokenLimits, now: () => Date = () => new Date()): TokenBudget {
  const dayKey = () => `${prefix}llm-tokens:day:${now().toISOString().slice(0, 10)}`;
  const incidentKey = (id: string) => `${prefix}llm-tokens:incident:${id}`;

  async function spent(incidentId?: string): Promise<{ incident: number; day: number }> {
    const [day, incident] = await redis.mget(dayKey(), incidentId ? incidentKey(incidentId) : dayKey());
    return { day: Number(day ?? 0), incident: incidentId ? Number(incident ?? 0) : 0 };
  }

  return {
    spent,
    async reserve(incidentId, estimate) {
      const used = await spent(incidentId);
      if (limits.perIncident > 0 && incidentId && used.incident + estimate > limits.perIncident) {
        throw new MedicError(
          ErrorCode.BudgetExhausted,
          `incident ${incidentId} has used ${used.incident} of its ${limits.perIncident} LLM tokens and the next call needs ~${estimate}; Medic stopped spending on it. Raise MEDIC_TOKEN_BUDGET_INCIDENT to allow more.`,
        );
      }
      if (limits.perDay > 0 && used.day + estimate > limits.perDay) {
        throw new MedicError(
          ErrorCode.BudgetExhausted,
          `today's LLM budget is spent (${used.day} of ${limits.perDay} tokens, next call ~${estimate}); Medic stops spending until UTC midnight. Raise MEDIC_TOKEN_BUDGET_DAY to allow more.`,
        );
      }
    },
    async record(incidentId, tokens) {
      if (tokens <= 0) return;
      const multi = redis.multi().incrby(dayKey(), tokens).expire(dayKey(), DAY_TTL_S);
      if (incidentId) multi.incrby(incidentKey(incidentId), tokens).expire(incidentKey(incidentId), INCIDENT_TTL_S);
      await multi.exec();
    },
  };
}
