import { CELLS_PER_PART, sketchDifference, type PersonSetSketch } from './person-set-sketch';

/**
 * The tracker defence against differences of 20 or more persons, combined.
 *
 * Two answers 20 or more persons apart are both released, and their difference is a count of the
 * persons in between: `S or Y or X` less `X` is |S ∪ Y|, averaged over many covers X to the exact
 * number. A third answer, Y alone, then gives |S| by subtraction. The pairwise check cannot see it:
 * no two of the three answers are near. But the three are: the persons of Y are those of the first
 * answer less those of the second, but for the persons of S. Sketches are linear (a sketch of a set
 * is the sum of its persons' entries), so `sketch(N) − sketch(A) + sketch(B)` is the sketch of what
 * is left when the persons of A and B are taken off and put back, and it peels like any difference.
 *
 * So a new answer N is also checked against every two kept answers A and B in both forms a reader
 * can subtract them in: N ≈ A − B (N is the difference of two earlier answers, or A is N plus B) and
 * N ≈ A + B (N is the union of two earlier answers). Which of the three came first does not matter:
 * each is the new one once, and the other two are then kept. N is near when what is left is 1 to
 * threshold − 1 persons; exactly nothing left (N is A less B, or A with B) gives no small count to
 * anyone, and is released.
 *
 * Pairs are chosen by their true counts first (|A| − |B| or |A| + |B| within threshold − 1 of |N|:
 * no nearer combination can be further in count), then by a bound on the first part of the sketch
 * (a difference of k persons leaves at most k in the cells of each part), so only the few pairs
 * that pass both are peeled. Only the counts and that first part are held in memory per kept
 * answer; the whole sketches of a pair are read when it passes both.
 */

/** A kept answer as the combination check first reads it: its true count and the first part of its sketch. */
export interface KeptCounts {
  id: number;
  personCount: number;
  /** Persons per cell of the sketch's first part (`CELLS_PER_PART` of them). */
  firstPart: Int32Array;
}

/** A kept answer with its whole sketch (tests and the benchmark). */
export interface KeptSketch extends KeptCounts {
  sketch: PersonSetSketch;
}

/** Two kept answers that, added (`sign` 1) or subtracted (`sign` −1), may be within threshold − 1 persons of a new answer. */
export interface Combination<K extends KeptCounts = KeptCounts> {
  first: K;
  second: K;
  sign: 1 | -1;
}

/** What the check keeps of a kept answer in memory: a twentieth of its sketch. */
export const keptCounts = (id: number, personCount: number, sketch: PersonSetSketch): KeptCounts => ({
  id,
  personCount,
  firstPart: Int32Array.from(sketch.counts.slice(0, CELLS_PER_PART)),
});

/** The first index of `sorted` (by person count) whose count is at least `count`. */
function lowerBound(sorted: readonly KeptCounts[], count: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]!.personCount < count) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Whether N − A − sign·B leaves more than `slack` persons in the first part's cells (a lower bound on
 * how many are left in all); stops at the first cells that prove it, which for unrelated sets of
 * some size is the first.
 */
function leavesMoreThan(slack: number, fresh: Int32Array, first: Int32Array, second: Int32Array, sign: 1 | -1): boolean {
  let left = 0;
  for (let i = 0; i < CELLS_PER_PART; i++) {
    left += Math.abs(fresh[i]! - first[i]! - sign * second[i]!);
    if (left > slack) return true;
  }
  return false;
}

/** The sketch of A + sign·B. */
function combined(first: PersonSetSketch, second: PersonSetSketch, sign: 1 | -1): PersonSetSketch {
  return {
    counts: first.counts.map((n, i) => n + sign * second.counts[i]!),
    keySums: first.keySums.map((s, i) => s + sign * second.keySums[i]!),
    checkSums: first.checkSums.map((s, i) => s + sign * second.checkSums[i]!),
  };
}

/**
 * The pairs of kept answers (in the order of `sorted`, sorted by person count) whose counts combine
 * to within threshold − 1 of the new answer's and whose first parts leave at most threshold − 1
 * persons: the only pairs that can be near, to be peeled whole by `isNear`.
 */
export function* candidateCombinations<K extends KeptCounts>(fresh: { personCount: number; sketch: PersonSetSketch }, sorted: readonly K[], threshold: number): Generator<Combination<K>> {
  const slack = threshold - 1;
  const n = fresh.personCount;
  // The same array type as the kept ones', so the bound's loop stays on one fast path.
  const freshFirst = Int32Array.from(fresh.sketch.counts.slice(0, CELLS_PER_PART));
  for (let i = 0; i < sorted.length; i++) {
    const first = sorted[i]!;
    // N ≈ A − B: B's count within slack of |A| − |N|.
    for (let j = lowerBound(sorted, first.personCount - n - slack); j < sorted.length && sorted[j]!.personCount <= first.personCount - n + slack; j++) {
      if (j !== i && !leavesMoreThan(slack, freshFirst, first.firstPart, sorted[j]!.firstPart, -1)) yield { first, second: sorted[j]!, sign: -1 };
    }
    // N ≈ A + B: B's count within slack of |N| − |A|; each unordered pair once.
    for (let j = Math.max(i + 1, lowerBound(sorted, n - first.personCount - slack)); j < sorted.length && sorted[j]!.personCount <= n - first.personCount + slack; j++) {
      if (!leavesMoreThan(slack, freshFirst, first.firstPart, sorted[j]!.firstPart, 1)) yield { first, second: sorted[j]!, sign: 1 };
    }
  }
}

/** Whether N − A − sign·B, peeled, leaves 1 to threshold − 1 persons (nothing left is not near). */
export function isNear(fresh: PersonSetSketch, first: PersonSetSketch, second: PersonSetSketch, sign: 1 | -1, threshold: number): boolean {
  const left = sketchDifference(fresh, combined(first, second, sign), threshold);
  return left !== undefined && left >= 1 && left < threshold;
}

/** The first pair of kept answers whose sum or difference is within 1 to threshold − 1 persons of the new answer; undefined when none is. */
export function nearCombination(fresh: { personCount: number; sketch: PersonSetSketch }, sorted: readonly KeptSketch[], threshold: number): Combination<KeptSketch> | undefined {
  for (const pair of candidateCombinations(fresh, sorted, threshold)) {
    if (isNear(fresh.sketch, pair.first.sketch, pair.second.sketch, pair.sign, threshold)) return pair;
  }
  return undefined;
}
