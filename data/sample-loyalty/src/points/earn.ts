import { TIER_RATES, type Tier } from './tiers.js';

/**
 * Points earned on an order total (integer cents) at a customer's tier.
 */
export function pointsFor(totalCents: number, tier: Tier): number {
  return Math.floor((totalCents / 100) * TIER_RATES[tier]!.multiplier);
}
