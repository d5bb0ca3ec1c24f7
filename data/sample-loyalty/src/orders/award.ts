import { pointsFor } from '../points/earn.js';
import type { Tier } from '../points/tiers.js';

export interface PlacedOrder { orderNumber: string; customerTier: Tier; totalCents: number }

/** Called for every order the shop places; the points land on the customer's balance. */
export function awardPoints(order: PlacedOrder): { orderNumber: string; points: number } {
  const points = pointsFor(order.totalCents, order.customerTier);
  return { orderNumber: order.orderNumber, points };
}
