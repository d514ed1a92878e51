import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KEY_RANGE } from '../src/warehouse/perturbation';
import { sketchDifference, sketchOfKeys } from '../src/warehouse/person-set-sketch';
import { firstPartOf, firstPartsApartMoreThan } from '../src/warehouse/release-ledger';

/**
 * The ledger skips a kept set without reading its whole sketch when the first parts alone put it more
 * than the slack away from the fresh set. A skip the whole comparison would not have made lets a
 * tracker through, so the filter is attacked with the sets a tracker uses: a large set, and the same
 * set with a few persons added and a few taken away.
 */
const SLACK = 19;
const keys = fc.uniqueArray(fc.integer({ min: 0, max: KEY_RANGE - 1 }), { minLength: 20, maxLength: 400 });

describe("the ledger's first-part filter", () => {
  it('never rules out a kept set that the whole sketches find within the slack', () => {
    fc.assert(
      fc.property(keys, fc.nat({ max: 25 }), fc.uniqueArray(fc.integer({ min: 0, max: KEY_RANGE - 1 }), { maxLength: 25 }), (kept, removed, added) => {
        const fresh = [...new Set([...kept.slice(removed), ...added])];
        const keptSketch = sketchOfKeys(kept);
        const freshSketch = sketchOfKeys(fresh);
        const difference = sketchDifference(freshSketch, keptSketch, SLACK + 1);
        const ruledOut = firstPartsApartMoreThan(SLACK, firstPartOf(freshSketch.counts), firstPartOf(keptSketch.counts), 0);
        if (difference !== undefined && difference <= SLACK) expect(ruledOut).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('rules out unrelated sets of the same size, so whole sketches are read only for near ones', () => {
    const a = sketchOfKeys(Array.from({ length: 300 }, (_v, i) => i * 7919));
    const b = sketchOfKeys(Array.from({ length: 300 }, (_v, i) => i * 104_729 + 13));
    expect(firstPartsApartMoreThan(SLACK, firstPartOf(a.counts), firstPartOf(b.counts), 0)).toBe(true);
    const nested = sketchOfKeys(Array.from({ length: 290 }, (_v, i) => i * 7919));
    expect(firstPartsApartMoreThan(SLACK, firstPartOf(a.counts), firstPartOf(nested.counts), 0)).toBe(false);
  });
});
