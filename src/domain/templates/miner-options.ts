import type { FoldSettings } from './fold-evidence.js';
import { defaultMaskLimits, type MaskLimits } from './mask-message.js';

export interface MinerOptions extends MaskLimits, FoldSettings {
  /** Groups kept in memory; past it the least recently used group is forgotten. */
  maxGroups: number;
  /**
   * Groups sharing a length and first token; bounds the work per message when a flood of distinct
   * messages looks alike. Past it the least recently used of them is forgotten.
   */
  maxGroupsPerBucket: number;
  /** Retired ids (merged groups) still resolved to their survivor; oldest forgotten first. */
  maxAliases: number;
  /** Share of a template's constants a message must keep to join it despite value-like differences. */
  minSimilarity: number;
}

export const defaultMinerOptions: MinerOptions = {
  ...defaultMaskLimits,
  maxGroups: 10_000,
  maxGroupsPerBucket: 100,
  maxAliases: 50_000,
  minSimilarity: 0.5,
  siblingsToGeneralize: 3,
  maxWordDiffs: 1,
  maxMedianCount: 4,
};
