import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { candidateCombinations, isNear, keptCounts, nearCombination, withKept, type KeptSketch } from '../src/warehouse/ledger-combinations';
import { KEY_RANGE } from '../src/warehouse/perturbation';
import { sketchOfKeys } from '../src/warehouse/person-set-sketch';

/**
 * The combination check's search (ledger-combinations.ts) against the plainest one: every ordered
 * pair of kept answers, subtracted, and every unordered pair, added, peeled whole by `isNear`. The
 * search skips pairs by bounds and looks partners up by block; whatever it skips, it must find
 * exactly the near pairs the plain search finds.
 */
const THRESHOLD = 20;

const kept = (id: number, set: readonly number[]): KeptSketch => ({ ...keptCounts(id, set.length, sketchOfKeys(set)), sketch: sketchOfKeys(set) });

/** Every near pair, by the plain search: `first second sign`, an added pair in id order. */
function nearByEveryPair(fresh: readonly number[], ledger: readonly KeptSketch[]): string[] {
  const sketch = sketchOfKeys(fresh);
  const found: string[] = [];
  for (const a of ledger) {
    for (const b of ledger) {
      if (a === b) continue;
      if (isNear(sketch, a.sketch, b.sketch, -1, THRESHOLD)) found.push(`${a.id} ${b.id} -1`);
      if (a.id < b.id && isNear(sketch, a.sketch, b.sketch, 1, THRESHOLD)) found.push(`${a.id} ${b.id} 1`);
    }
  }
  return found.sort();
}

/** Every near pair the search yields, peeled, in the same form. */
function nearBySearch(fresh: readonly number[], sorted: readonly KeptSketch[], scanUpTo?: number): string[] {
  const sketch = sketchOfKeys(fresh);
  const found: string[] = [];
  for (const pair of candidateCombinations({ personCount: fresh.length, sketch }, sorted, THRESHOLD, scanUpTo === undefined ? {} : { scanUpTo })) {
    if (!isNear(sketch, pair.first.sketch, pair.second.sketch, pair.sign, THRESHOLD)) continue;
    const [x, y] = pair.sign === 1 ? [pair.first.id, pair.second.id].sort((p, q) => p - q) : [pair.first.id, pair.second.id];
    found.push(`${x} ${y} ${pair.sign}`);
  }
  return found.sort();
}

/**
 * A ledger whose answers are unions of a few of the same pieces (of 1 to 60 persons), so that many
 * new answers are near a sum or difference of two kept ones, and many are exactly one or 20 or more
 * away; and a new answer made the same way.
 */
const pieceSizes = fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 4, maxLength: 9 });
const ledgerCase = pieceSizes.chain((sizes) =>
  fc.record({
    pool: fc.uniqueArray(fc.integer({ min: 0, max: KEY_RANGE - 1 }), { minLength: sizes.reduce((s, n) => s + n, 0), maxLength: sizes.reduce((s, n) => s + n, 0) }),
    sizes: fc.constant(sizes),
    answers: fc.array(fc.array(fc.boolean(), { minLength: sizes.length, maxLength: sizes.length }), { minLength: 2, maxLength: 14 }),
    fresh: fc.array(fc.boolean(), { minLength: sizes.length, maxLength: sizes.length }),
    /** Where the ledger is split into what was kept before and what since (the index carried over). */
    split: fc.nat(),
  }),
);

function buildCase({ pool, sizes, answers, fresh, split }: { pool: number[]; sizes: number[]; answers: boolean[][]; fresh: boolean[]; split: number }) {
  const pieces: number[][] = [];
  let at = 0;
  for (const size of sizes) pieces.push(pool.slice(at, (at += size)));
  const union = (chosen: boolean[]) => pieces.filter((_p, i) => chosen[i]).flat();
  // Kept answers are distinct sets of the threshold or more (smaller ones are hidden whole and not kept).
  const seen = new Set<string>();
  const ledger = answers
    .map(union)
    .filter((set) => set.length >= THRESHOLD && !seen.has(set.join()) && seen.add(set.join()))
    .map((set, id) => kept(id, set));
  return { ledger, fresh: union(fresh), split: ledger.length === 0 ? 0 : split % (ledger.length + 1) };
}

describe('the combination search finds exactly the near pairs of every pair (fast-check)', () => {
  it('over random small ledgers: by windows, by block look-ups, and by both as the ledger chooses', () => {
    let withNear = 0;
    fc.assert(
      fc.property(ledgerCase, (input) => {
        const { ledger, fresh, split } = buildCase(input);
        fc.pre(fresh.length >= THRESHOLD);
        const expected = nearByEveryPair(fresh, ledger);
        if (expected.length > 0) withNear++;
        // Kept in two batches, the second merged in after the first was searched (so its block index exists and is carried).
        const earlier = withKept([], ledger.slice(0, split));
        nearBySearch(fresh, earlier, 0);
        const sorted = withKept(earlier, ledger.slice(split));
        expect(nearBySearch(fresh, sorted, 0)).toEqual(expected);
        expect(nearBySearch(fresh, sorted, Infinity)).toEqual(expected);
        expect(nearBySearch(fresh, withKept([], ledger))).toEqual(expected);
      }),
      { numRuns: 300, seed: 20261127 },
    );
    // The cases are worth something only if many have near pairs to find.
    expect(withNear).toBeGreaterThan(50);
  });

  it('a threshold above the blocks (more than 20) still finds every near pair, by windows alone', () => {
    fc.assert(
      fc.property(ledgerCase, (input) => {
        const { ledger, fresh } = buildCase(input);
        const sketch = sketchOfKeys(fresh);
        const sorted = withKept([], ledger);
        const expected = ledger.flatMap((a) =>
          ledger.flatMap((b) => [
            ...(a !== b && isNear(sketch, a.sketch, b.sketch, -1, 30) ? [`${a.id} ${b.id} -1`] : []),
            ...(a.id < b.id && isNear(sketch, a.sketch, b.sketch, 1, 30) ? [`${a.id} ${b.id} 1`] : []),
          ]),
        );
        const found = [...candidateCombinations({ personCount: fresh.length, sketch }, sorted, 30, { scanUpTo: 0 })]
          .filter((pair) => isNear(sketch, pair.first.sketch, pair.second.sketch, pair.sign, 30))
          .map((pair) => (pair.sign === 1 ? `${Math.min(pair.first.id, pair.second.id)} ${Math.max(pair.first.id, pair.second.id)} 1` : `${pair.first.id} ${pair.second.id} -1`));
        expect(found.sort()).toEqual(expected.sort());
      }),
      { numRuns: 100, seed: 2026 },
    );
  });
});

describe('what the combination check does not see: four answers', () => {
  it('Y ∪ Z, Z, S ∪ Y ∪ X and X combine to S, yet whichever is asked last is near no pair of the other three (the stated limit)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: KEY_RANGE - 1 }), { minLength: 700, maxLength: 700 }), fc.integer({ min: 1, max: 19 }), (pool, small) => {
        const [s, y, z, x] = [pool.slice(0, small), pool.slice(20, 120), pool.slice(120, 400), pool.slice(400, 700)];
        // The two families of the four-answer tracker: (Y ∪ Z) − Z is |Y| and (S ∪ Y ∪ X) − X is
        // |S ∪ Y|, each 20 or more; the four answers together are |S|.
        const four = [[...y, ...z], z, [...s, ...y, ...x], x];
        for (let last = 0; last < four.length; last++) {
          const ledger = withKept(
            [],
            four.flatMap((set, id) => (id === last ? [] : [kept(id, set)])),
          );
          expect(nearCombination({ personCount: four[last]!.length, sketch: sketchOfKeys(four[last]!) }, ledger, THRESHOLD)).toBeUndefined();
        }
        // Y alone, the padded tracker's third answer, is near (S ∪ Y ∪ X) − X: caught.
        const all = withKept([], four.map((set, id) => kept(id, set)));
        expect(nearCombination({ personCount: y.length, sketch: sketchOfKeys(y) }, all, THRESHOLD)).toMatchObject({ first: { id: 2 }, second: { id: 3 }, sign: -1 });
      }),
      { numRuns: 30, seed: 4 },
    );
  });
});
