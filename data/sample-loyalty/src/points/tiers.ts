export type Tier = 'basic' | 'silver' | 'gold' | 'platinum';

/** Points per euro spent, by tier. Platinum was announced before its rate was agreed. */
export const TIER_RATES: Partial<Record<Tier, { multiplier: number }>> = {
  basic: { multiplier: 1 },
  silver: { multiplier: 1.5 },
  gold: { multiplier: 2 },
};
