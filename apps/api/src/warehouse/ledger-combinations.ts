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
 * that pass both are peeled.
 */

/** A kept answer as the combination check reads it. */
export interface KeptSketch {
  id: number;
  personCount: number;
  sketch: PersonSetSketch;
}

/** Two kept answers that, added (`sign` 1) or subtracted (`sign` −1), are within threshold − 1 persons of a new answer. */
export interface NearCombination {
  first: KeptSketch;
  second: KeptSketch;
  sign: 1 | -1;
}

/** The first index of `sorted` (by person count) whose count is at least `count`. */
function lowerBound(sorted: readonly KeptSketch[], count: number): number {
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
function leavesMoreThan(slack: number, fresh: PersonSetSketch, first: PersonSetSketch, second: PersonSetSketch, sign: 1 | -1): boolean {
  let left = 0;
  for (let i = 0; i < CELLS_PER_PART; i++) {
    left += Math.abs(fresh.counts[i]! - first.counts[i]! - sign * second.counts[i]!);
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
 * The first pair of kept answers (in the order of `sorted`, sorted by person count) whose sum or
 * difference is within 1 to threshold − 1 persons of the new answer; undefined when none is.
 */
export function nearCombination(fresh: { personCount: number; sketch: PersonSetSketch }, sorted: readonly KeptSketch[], threshold: number): NearCombination | undefined {
  const slack = threshold - 1;
  const n = fresh.personCount;
  const near = (first: KeptSketch, second: KeptSketch, sign: 1 | -1): boolean => {
    if (leavesMoreThan(slack, fresh.sketch, first.sketch, second.sketch, sign)) return false;
    const left = sketchDifference(fresh.sketch, combined(first.sketch, second.sketch, sign), threshold);
    return left !== undefined && left >= 1 && left < threshold;
  };
  for (let i = 0; i < sorted.length; i++) {
    const first = sorted[i]!;
    // N ≈ A − B: B's count within slack of |A| − |N|.
    for (let j = lowerBound(sorted, first.personCount - n - slack); j < sorted.length && sorted[j]!.personCount <= first.personCount - n + slack; j++) {
      if (j !== i && near(first, sorted[j]!, -1)) return { first, second: sorted[j]!, sign: -1 };
    }
    // N ≈ A + B: B's count within slack of |N| − |A|; each unordered pair once.
    for (let j = Math.max(i + 1, lowerBound(sorted, n - first.personCount - slack)); j < sorted.length && sorted[j]!.personCount <= n - first.personCount + slack; j++) {
      if (near(first, sorted[j]!, 1)) return { first, second: sorted[j]!, sign: 1 };
    }
  }
  return undefined;
}
