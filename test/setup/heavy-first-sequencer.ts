import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Files that start worker processes, browsers, clusters or storms: most of the suite's time. */
const HEAVY = /[\\/]test[\\/](?:e2e|integration|storm)[\\/]/;

/**
 * The heavy files first, each group in vitest's own order (longest first when it has timings). A
 * clean clone has no timings, and vitest would then take files in name order, leaving a one-minute
 * crash drill to end the run alone on one core while the other sat idle.
 */
export default class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter((f) => HEAVY.test(f.moduleId)), ...sorted.filter((f) => !HEAVY.test(f.moduleId))];
  }
}
