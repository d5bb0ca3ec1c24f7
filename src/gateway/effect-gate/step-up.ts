import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { RedisClient } from '../../adapters/redis/connect.js';
import { canonicalJson } from '../../domain/hash.js';

/**
 * Step-up challenges for DESTRUCTIVE actions. A challenge is bound to the action, the target, the
 * arguments hash and the incident, HMAC-signed, stored once (SET NX) and redeemed once (GETDEL):
 * a replayed, expired, re-bound or forged token redeems nothing.
 */
export interface Challenge {
  challengeId: string;
  tool: string;
  target: string;
  argsHash: string;
  incidentId: string;
  requestedBy: string;
  expiresAt: number;
  /** The normalized arguments, kept server side so the modal cannot change what runs. */
  args: unknown;
}

export interface IssuedChallenge {
  challengeId: string;
  /** Goes into the modal's private_metadata; useless without the stored record. */
  token: string;
  target: string;
  expiresAt: number;
}

export type Redemption = { ok: true; challenge: Challenge } | { ok: false; reason: string };

export interface StepUpChallenges {
  issueChallenge(input: Omit<Challenge, 'challengeId' | 'expiresAt'>): Promise<IssuedChallenge>;
  /**
   * Verifies the token, the binding, the expiry, the typed target and that the confirmer is not
   * the requester, then asks `authorize` (authority re-resolved by the caller) and only then
   * spends the challenge — so a wrong click by the wrong person does not burn it.
   */
  redeemChallenge(
    input: { token: string; typedTarget: string; incidentId: string; confirmerId: string },
    authorize: (challenge: Challenge) => Promise<string | undefined>,
  ): Promise<Redemption>;
}

export function createStepUpChallenges(redis: RedisClient, prefix: string, options: { secret: string; ttlMs: number; now?: () => number }): StepUpChallenges {
  if (options.secret.length < 32) throw new Error('The step-up secret must be at least 32 characters (MEDIC_STEP_UP_SECRET).');
  const now = options.now ?? Date.now;
  const key = (id: string) => `${prefix}gw:challenge:${id}`;
  const sign = (c: Challenge) => {
    const { args: _args, ...bound } = c;
    return createHmac('sha256', options.secret).update(canonicalJson(bound)).digest('hex');
  };

  return {
    async issueChallenge(input) {
      const challenge: Challenge = { ...input, challengeId: randomBytes(12).toString('hex'), expiresAt: now() + options.ttlMs };
      // Redis keeps it a little longer than the TTL; the signed expiry is what decides.
      const stored = await redis.set(key(challenge.challengeId), JSON.stringify(challenge), 'PX', options.ttlMs + 60_000, 'NX');
      if (stored !== 'OK') throw new Error('Challenge id collision; request the step-up again.');
      return { challengeId: challenge.challengeId, token: `${challenge.challengeId}.${sign(challenge)}`, target: challenge.target, expiresAt: challenge.expiresAt };
    },

    async redeemChallenge(input, authorize) {
      const [id, signature] = input.token.split('.');
      if (!id || !signature || !/^[0-9a-f]{24}$/.test(id)) return { ok: false, reason: 'malformed challenge token' };
      const raw = await redis.get(key(id));
      if (!raw) return { ok: false, reason: 'challenge unknown or already redeemed' };
      const challenge = JSON.parse(raw) as Challenge;
      const expected = Buffer.from(sign(challenge));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'challenge signature does not match its binding' };
      if (now() > challenge.expiresAt) return { ok: false, reason: 'challenge expired' };
      if (challenge.incidentId !== input.incidentId) return { ok: false, reason: 'challenge is bound to another incident' };
      if (input.typedTarget.trim() !== challenge.target) return { ok: false, reason: 'typed target does not match' };
      if (input.confirmerId === challenge.requestedBy) return { ok: false, reason: 'the confirmer must be a second person, not the requester' };
      const refusal = await authorize(challenge);
      if (refusal) return { ok: false, reason: refusal };
      // Single use: of two concurrent confirmations, exactly one gets the record back.
      const spent = await redis.getdel(key(id));
      if (spent !== raw) return { ok: false, reason: 'challenge unknown or already redeemed' };
      return { ok: true, challenge };
    },
  };
}
