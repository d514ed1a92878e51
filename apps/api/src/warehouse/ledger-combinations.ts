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
 * no nearer combination can be further in count), then by bounds read from the first part of the
 * sketch (what a combination leaves, and what of one answer lies outside another: a difference of
 * k persons leaves at most k in the cells of each part), so only the few pairs that pass are peeled.
 * Every bound is one a near combination always meets, so nothing near is passed over. Only the
 * counts and that first part are held in memory per kept answer; the whole sketches of a pair are
 * read when it passes.
 */

/** A kept answer as the combination check first reads it: its true count and the first part of its sketch. */
export interface KeptCounts {
  id: number;
  personCount: number;
  /** Persons per cell of the sketch's first part (`CELLS_PER_PART` of them). */
  firstPart: Int32Array;
  /**
   * The same cells' key sums modulo 2³² (what an Int32Array keeps of a number). Still linear, so a
   * cell of N − A − sign·B whose key sum is not 0 holds at least one person even when its count is
   * 0: with it the bounds below see the differences of small sets, whose cells hold one person each.
   */
  firstKeySums: Int32Array;
  /** Which cells of the first part hold anyone: a bit a cell, so the bound on a pair starts with four words. */
  occupied: Int32Array;
  /** The first part's key sums per block of cells (`BLOCKS`), modulo 2³². */
  blocks: Int32Array;
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

/** What the check keeps of a kept answer in memory: its count, and the first part's counts and key sums (1 kB). */
export const keptCounts = (id: number, personCount: number, sketch: PersonSetSketch): KeptCounts => ({
  id,
  personCount,
  firstPart: Int32Array.from(sketch.counts.slice(0, CELLS_PER_PART)),
  // An Int32Array keeps a whole number modulo 2³² exactly (key sums stay below 2⁵³).
  firstKeySums: Int32Array.from(sketch.keySums.slice(0, CELLS_PER_PART)),
  occupied: occupiedCells(sketch.counts),
  blocks: blockKeySums(Int32Array.from(sketch.keySums.slice(0, CELLS_PER_PART))),
});

const WORDS = CELLS_PER_PART / 32;

function occupiedCells(counts: ArrayLike<number>): Int32Array {
  const bits = new Int32Array(WORDS);
  for (let i = 0; i < CELLS_PER_PART; i++) if (counts[i] !== 0) bits[i >> 5]! |= 1 << (i & 31);
  return bits;
}

function bitCount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

/**
 * A first bound on the persons N − A − sign·B leaves, from which cells are occupied only: of
 * N ≈ A + B, every cell occupied in N and in neither A nor B, or in A or B and not N, holds one
 * left at least; of N ≈ A − B, every cell occupied in A and in neither N nor B, or the reverse.
 * Small answers occupy a cell a person, so this rules out most of their pairs in a few operations.
 */
function occupiedApartMoreThan(slack: number, fresh: Int32Array, first: Int32Array, firstAt: number, second: Int32Array, secondAt: number, sign: 1 | -1): boolean {
  let apart = 0;
  for (let w = 0; w < WORDS; w++) {
    const a = first[firstAt + w]!;
    const b = second[secondAt + w]!;
    apart += bitCount(sign === 1 ? fresh[w]! ^ (a | b) : a ^ (fresh[w]! | b));
  }
  return apart > slack;
}

/**
 * Whether no block is left untouched by N − A − sign·B (its key sum is not 0 in any block): a near
 * combination touches fewer than `BLOCKS` blocks (see `BLOCKS`), so it always has one. For the
 * pairs of a window scanned, from the packed block sums: twenty reads in a row, where the bound on
 * the cells reads both answers' arrays from wherever they lie.
 */
function noBlockUntouched(fresh: Int32Array, blocks: Int32Array, firstAt: number, secondAt: number, sign: 1 | -1): boolean {
  for (let g = 0; g < BLOCKS; g++) if (((fresh[g]! - blocks[firstAt + g]! - sign * blocks[secondAt + g]!) | 0) === 0) return false;
  return true;
}

const byCount = (a: KeptCounts, b: KeptCounts) => a.personCount - b.personCount || a.id - b.id;

/**
 * The first part's cells in `BLOCKS` blocks of six or seven. A combination that leaves fewer than
 * `BLOCKS` persons touches fewer than `BLOCKS` cells of the first part, so it leaves one block
 * wholly untouched, and there N − A − sign·B is 0 exactly: B's key sum over that block is
 * sign·(N's − A's). So for each A the partners worth bounding are found by looking up that key sum
 * in an index of the kept answers by block, one look-up a block, rather than by visiting every
 * answer of a matching count. With a threshold above `BLOCKS` the blocks prove nothing, and every
 * answer of a matching count is visited.
 */
export const BLOCKS = 20;
const blockOfCell = Array.from({ length: CELLS_PER_PART }, (_c, i) => Math.floor((i * BLOCKS) / CELLS_PER_PART));

/** An answer's key sums per block, modulo 2³². */
function blockKeySums(keySums: Int32Array): Int32Array {
  const sums = new Int32Array(BLOCKS);
  for (let i = 0; i < CELLS_PER_PART; i++) sums[blockOfCell[i]!] = (sums[blockOfCell[i]!]! + keySums[i]!) | 0;
  return sums;
}

/**
 * The kept answers by block: per block, those with each key sum, and apart those whose block is
 * empty (key sum 0), sorted by count, since small answers share that one key by the thousand and a
 * look-up of it takes those within a window of counts only.
 */
interface BlockIndex {
  /** Every answer by each block's key sum (`blockKey`), and the small ones also by each occupied cell (`cellKey`). */
  byKey: KeyIndex;
  empty: KeptCounts[][];
}

/**
 * Small answers are also indexed cell by cell. Their blocks are mostly empty, and an empty block
 * (key sum 0) matches every small answer with the same block empty, by the thousand; a cell that
 * holds someone matches only answers with the same persons there. A set of more than 128 persons
 * has an empty block about once in 600 (a block is a twentieth of the cells), so the empty blocks'
 * lists above this count are short, and the cells of larger answers are not worth their memory.
 */
export const CELL_INDEXED = 128;

/**
 * Keys of a block's key sum and of a cell's count and key sum, mixed into 32 bits. Two that share a
 * key only add a pair for the bounds to rule out; a near pair is never lost by it.
 */
const blockKey = (block: number, keySum: number) => Math.imul(Math.imul(keySum, 0x9e3779b1) ^ block, 0x85ebca6b) ^ 0x5bd1e995;
const cellKey = (cell: number, count: number, keySum: number) => Math.imul(Math.imul(keySum, 0x9e3779b1) ^ Math.imul(count, 0x85ebca6b) ^ (cell << 8), 0xc2b2ae35);

/**
 * A multimap of those keys to kept answers, in typed arrays (a chain per slot): a look-up is a few
 * array reads, where a `Map` per block took most of the check's time, and an entry costs 16 bytes.
 */
class KeyIndex {
  answers: KeptCounts[] = [];
  heads = new Int32Array(1 << 10).fill(-1);
  keys = new Int32Array(1 << 10);
  places = new Int32Array(1 << 10);
  next = new Int32Array(1 << 10);
  size = 0;

  /** Adds `kept` (from now on at `place`) under each key of `keys`, `count` of them. */
  add(kept: KeptCounts, keys: Int32Array, count: number): void {
    const place = this.answers.length;
    this.answers.push(kept);
    if (this.size + count > this.keys.length) this.grow(this.size + count);
    const mask = this.heads.length - 1;
    for (let k = 0; k < count; k++) {
      const key = keys[k]!;
      const entry = this.size++;
      this.keys[entry] = key;
      this.places[entry] = place;
      this.next[entry] = this.heads[key & mask]!;
      this.heads[key & mask] = entry;
    }
  }

  private grow(needed: number): void {
    let length = this.keys.length;
    while (length < needed) length *= 2;
    const widen = (array: Int32Array) => {
      const wider = new Int32Array(length);
      wider.set(array.subarray(0, this.size));
      return wider;
    };
    this.keys = widen(this.keys);
    this.places = widen(this.places);
    this.next = new Int32Array(length);
    this.heads = new Int32Array(length).fill(-1);
    const mask = length - 1;
    for (let entry = 0; entry < this.size; entry++) {
      this.next[entry] = this.heads[this.keys[entry]! & mask]!;
      this.heads[this.keys[entry]! & mask] = entry;
    }
  }

  /** Into `found`, the answers under `key` with counts in [low, high]. */
  find(key: number, low: number, high: number, found: KeptCounts[]): void {
    const keys = this.keys;
    for (let entry = this.heads[key & (this.heads.length - 1)]!; entry !== -1; entry = this.next[entry]!) {
      if (keys[entry] !== key) continue;
      const kept = this.answers[this.places[entry]!]!;
      if (kept.personCount >= low && kept.personCount <= high) found.push(kept);
    }
  }
}

/** An answer's keys (`indexAnswer`): one array for all, as answers are indexed one at a time. */
const answerKeys = new Int32Array(BLOCKS + CELLS_PER_PART);

/** Per ledger array: built when first needed, and carried to the array `withKept` makes of it. */
const blockIndexes = new WeakMap<readonly KeptCounts[], BlockIndex>();

function indexAnswer(index: BlockIndex, kept: KeptCounts, inOrder: boolean): void {
  const sums = kept.blocks;
  let keys = 0;
  for (let g = 0; g < BLOCKS; g++) {
    const key = sums[g]!;
    if (key === 0) {
      const list = index.empty[g]!;
      if (inOrder) list.push(kept);
      else list.splice(firstAtLeast(list, kept.personCount, kept.id), 0, kept);
    } else answerKeys[keys++] = blockKey(g, key);
  }
  if (kept.personCount <= CELL_INDEXED) {
    for (let i = 0; i < CELLS_PER_PART; i++) if (kept.firstPart[i] !== 0) answerKeys[keys++] = cellKey(i, kept.firstPart[i]!, kept.firstKeySums[i]!);
  }
  index.byKey.add(kept, answerKeys, keys);
}

function blockIndexOf(sorted: readonly KeptCounts[]): BlockIndex {
  let index = blockIndexes.get(sorted);
  if (!index) {
    index = { byKey: new KeyIndex(), empty: Array.from({ length: BLOCKS }, () => []) };
    for (const kept of sorted) indexAnswer(index, kept, true);
    blockIndexes.set(sorted, index);
  }
  return index;
}

/** The first index of `list` (sorted by count, then id) at or after count `count` and id `id`. */
function firstAtLeast(list: readonly KeptCounts[], count: number, id = -Infinity): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const m = list[middle]!;
    if (m.personCount < count || (m.personCount === count && m.id < id)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** `sorted` (by person count, then id) with `added` in their places: a merge, not a sort of the whole ledger; its block index goes with it. */
export function withKept<K extends KeptCounts>(sorted: readonly K[], added: readonly K[]): K[] {
  const fresh = [...added].sort(byCount);
  const merged = new Array<K>(sorted.length + fresh.length);
  const before = packedArrays.get(sorted);
  const packed: Packed | undefined = before && { counts: new Int32Array(merged.length), occupied: new Int32Array(merged.length * WORDS), blocks: new Int32Array(merged.length * BLOCKS) };
  let i = 0;
  let j = 0;
  for (let k = 0; k < merged.length; k++) {
    if (j >= fresh.length || (i < sorted.length && byCount(sorted[i]!, fresh[j]!) <= 0)) {
      if (packed) {
        packed.counts[k] = before!.counts[i]!;
        for (let w = 0; w < WORDS; w++) packed.occupied[k * WORDS + w] = before!.occupied[i * WORDS + w]!;
        for (let g = 0; g < BLOCKS; g++) packed.blocks[k * BLOCKS + g] = before!.blocks[i * BLOCKS + g]!;
      }
      merged[k] = sorted[i++]!;
    } else {
      if (packed) pack(packed, k, fresh[j]!);
      merged[k] = fresh[j++]!;
    }
  }
  if (packed) packedArrays.set(merged, packed);
  const index = blockIndexes.get(sorted);
  if (index) {
    blockIndexes.delete(sorted);
    for (const kept of fresh) indexAnswer(index, kept, false);
    blockIndexes.set(merged, index);
  }
  return merged;
}

/**
 * A ledger array's counts and occupied cells, packed in its order: a window of partners is scanned
 * through contiguous memory rather than through an object and an array per answer (the scans'
 * reads from all over the heap took more time than their arithmetic). Built when first needed and
 * merged by `withKept` after.
 */
interface Packed {
  counts: Int32Array;
  occupied: Int32Array;
  /** The block key sums (`BLOCKS` an answer). */
  blocks: Int32Array;
}
const packedArrays = new WeakMap<readonly KeptCounts[], Packed>();

function pack(packed: Packed, at: number, kept: KeptCounts): void {
  packed.counts[at] = kept.personCount;
  for (let w = 0; w < WORDS; w++) packed.occupied[at * WORDS + w] = kept.occupied[w]!;
  for (let g = 0; g < BLOCKS; g++) packed.blocks[at * BLOCKS + g] = kept.blocks[g]!;
}

function packedOf(sorted: readonly KeptCounts[]): Packed {
  let packed = packedArrays.get(sorted);
  if (!packed) {
    packed = { counts: new Int32Array(sorted.length), occupied: new Int32Array(sorted.length * WORDS), blocks: new Int32Array(sorted.length * BLOCKS) };
    for (let k = 0; k < sorted.length; k++) pack(packed, k, sorted[k]!);
    packedArrays.set(sorted, packed);
  }
  return packed;
}

/**
 * Whether N − A − sign·B leaves more than `slack` persons in the first part's cells, by a lower bound:
 * a cell holds at least |its count| persons, and at least one when its key sum is not 0. A near
 * combination never exceeds it. Stops at the first cells that prove it, which for unrelated sets is
 * after about `slack` of their persons.
 */
function leavesMoreThan(slack: number, fresh: Int32Array, freshKeys: Int32Array, first: KeptCounts, second: KeptCounts, sign: 1 | -1): boolean {
  const a = first.firstPart;
  const aKeys = first.firstKeySums;
  const b = second.firstPart;
  const bKeys = second.firstKeySums;
  let left = 0;
  for (let i = 0; i < CELLS_PER_PART; i++) {
    const count = Math.abs(fresh[i]! - a[i]! - sign * b[i]!);
    left += count > 0 ? count : (freshKeys[i]! - aKeys[i]! - sign * bKeys[i]!) | 0 ? 1 : 0;
    if (left > slack) return true;
  }
  return false;
}

/**
 * Whether more than `slack` persons of `inner` are outside `outer`, by the same kind of bound cell by
 * cell: more persons than `outer` has there, or as many with other keys, are at least the excess (or
 * one) outside it. Of a near combination N ≈ A − B, N is within A but for the persons left (a person
 * of N outside A is left over, whatever B); of N ≈ A + B, A is within N likewise. So one answer is
 * ruled out with all its partners at once, and the check does not visit every pair of the many
 * small answers whose counts match.
 */
function outsideMoreThan(slack: number, outer: Int32Array, outerKeys: Int32Array, inner: Int32Array, innerKeys: Int32Array): boolean {
  let outside = 0;
  for (let i = 0; i < CELLS_PER_PART; i++) {
    const excess = inner[i]! - outer[i]!;
    outside += excess > 0 ? excess : excess === 0 && innerKeys[i] !== outerKeys[i] ? 1 : 0;
    if (outside > slack) return true;
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
 * Into `found`, the kept answers with counts in [low, high] whose key sum over some block is what a
 * near combination of `first` with the new answer would leave there (see `BLOCKS`); `blocks` is the
 * threshold (a combination leaving fewer than it touches fewer blocks).
 */
function partnersByBlock(index: BlockIndex, fresh: Int32Array, own: Int32Array, sign: 1 | -1, low: number, high: number, blocks: number, found: KeptCounts[]): void {
  for (let g = 0; g < blocks; g++) {
    // B = sign·(N − A) on an untouched block.
    const key = (sign * (fresh[g]! - own[g]!)) | 0;
    if (key === 0) {
      const list = index.empty[g]!;
      for (let k = firstAtLeast(list, low); k < list.length && list[k]!.personCount <= high; k++) found.push(list[k]!);
      continue;
    }
    index.byKey.find(blockKey(g, key), low, high, found);
  }
}

/** Cells of the first part to look up (`partnersByCell`); one array for every look-up, as they run one at a time. */
const probes = new Int32Array(CELLS_PER_PART);

/**
 * Into `found`, the kept answers of up to `CELL_INDEXED` persons with counts in [low, high] that hold
 * exactly what a near combination of `first` with the new answer would leave in some cell, of enough
 * cells that a near partner is among them; false (nothing looked up) when there are too few such cells.
 *
 * B would hold sign·(N − A) in every cell the combination leaves untouched, and it touches at most
 * `slack` cells. A cell where that is no count at all, or fewer than none, is touched in any case
 * (B holds no one there with a key sum, and never fewer than no one). So of any `slack` − (those) + 1
 * of the cells where it is a positive count, one is untouched, and there B's count and key sum are
 * sign·(N − A)'s exactly: one look-up a cell, each matching only answers with those very persons there.
 */
function partnersByCell(index: BlockIndex, fresh: Int32Array, freshKeys: Int32Array, first: KeptCounts, sign: 1 | -1, low: number, high: number, slack: number, found: KeptCounts[]): boolean {
  const a = first.firstPart;
  const aKeys = first.firstKeySums;
  let touched = 0;
  let positive = 0;
  for (let i = 0; i < CELLS_PER_PART; i++) {
    const count = sign * (fresh[i]! - a[i]!);
    if (count > 0) probes[positive++] = i;
    else if (count < 0 || ((freshKeys[i]! - aKeys[i]!) | 0) !== 0) touched++;
  }
  // More touched than the slack: no partner at all.
  if (touched > slack) return true;
  const needed = slack - touched + 1;
  if (positive < needed) return false;
  for (let k = 0; k < needed; k++) {
    const i = probes[k]!;
    index.byKey.find(cellKey(i, sign * (fresh[i]! - a[i]!), (sign * (freshKeys[i]! - aKeys[i]!)) | 0), low, high, found);
  }
  return true;
}

/**
 * The kept answers with counts in [low, high] that may make a near combination with `first` (see
 * `BLOCKS` and `partnersByCell`), each once, sorted by count then id. Where some block of the
 * combination would be empty, the small partners are looked up by cell rather than by block, and
 * the larger ones, which seldom have an empty block, by block.
 */
function partnersOf(index: BlockIndex, freshBlocks: Int32Array, freshFirst: Int32Array, freshKeys: Int32Array, first: KeptCounts, sign: 1 | -1, low: number, high: number, threshold: number): KeptCounts[] {
  const own = first.blocks;
  const found: KeptCounts[] = [];
  let emptyBlock = false;
  for (let g = 0; g < threshold; g++) if (((sign * (freshBlocks[g]! - own[g]!)) | 0) === 0) emptyBlock = true;
  if (emptyBlock && low <= CELL_INDEXED && partnersByCell(index, freshFirst, freshKeys, first, sign, low, Math.min(high, CELL_INDEXED), threshold - 1, found)) {
    if (high > CELL_INDEXED) partnersByBlock(index, freshBlocks, own, sign, CELL_INDEXED + 1, high, threshold, found);
  } else partnersByBlock(index, freshBlocks, own, sign, low, high, threshold, found);
  if (found.length < 2) return found;
  found.sort(byCount);
  return found.filter((kept, k) => k === 0 || found[k - 1] !== kept);
}

/**
 * The pairs of kept answers (in the order of `sorted`, sorted by person count) whose counts combine
 * to within threshold − 1 of the new answer's and whose first parts leave at most threshold − 1
 * persons: the only pairs that can be near, to be peeled whole by `isNear`. Every pair `isNear`
 * finds is among them (each test is one a near pair always passes); in the order of `sorted` by
 * the first answer, N ≈ A − B before N ≈ A + B, then by the second.
 *
 * One pass over the ledger: as A's count grows, the counts B may have move up (A − B) or down
 * (A + B), so two windows slide along `sorted`. An A whose window is empty is passed over; a
 * window of up to `scanUpTo` answers is scanned pair by pair through the packed arrays (`Packed`),
 * which is cheaper than bounding A alone first (measured); a larger one is looked up by block or by
 * cell (`partnersOf`), unless A does not nearly contain N (A − B) or lie nearly within it (A + B),
 * which passes it over with all its partners. `scanUpTo` is for tests, which check both ways
 * against every pair; 128 was the fastest of 16 to 2,048 on the benchmark's ledger of 20,000.
 */
export function* candidateCombinations<K extends KeptCounts>(
  fresh: { personCount: number; sketch: PersonSetSketch },
  sorted: readonly K[],
  threshold: number,
  { scanUpTo = 128 }: { scanUpTo?: number } = {},
): Generator<Combination<K>> {
  const slack = threshold - 1;
  const n = fresh.personCount;
  // The same array types as the kept ones', so the bounds' loops stay on one fast path.
  const freshFirst = Int32Array.from(fresh.sketch.counts.slice(0, CELLS_PER_PART));
  const freshKeys = Int32Array.from(fresh.sketch.keySums.slice(0, CELLS_PER_PART));
  const freshBlocks = blockKeySums(freshKeys);
  const freshOccupied = occupiedCells(freshFirst);
  const byBlock = threshold <= BLOCKS ? scanUpTo : Infinity;
  const size = sorted.length;
  const { counts, occupied, blocks } = packedOf(sorted);
  // With a threshold above the blocks, a near combination may touch every block.
  const blocksProve = threshold <= BLOCKS;
  // N ≈ A − B: B's count within slack of a − n, at indices [lowMinus, highMinus).
  let lowMinus = 0;
  let highMinus = 0;
  // N ≈ A + B: B's count within slack of n − a, at indices [lowPlus, highPlus).
  let lowPlus = size;
  let highPlus = size;
  for (let i = 0; i < size; i++) {
    const first = sorted[i]!;
    const a = counts[i]!;
    while (lowMinus < size && counts[lowMinus]! < a - n - slack) lowMinus++;
    if (highMinus < lowMinus) highMinus = lowMinus;
    while (highMinus < size && counts[highMinus]! <= a - n + slack) highMinus++;
    if (lowMinus < highMinus) {
      // A few partners are bounded pair by pair; before many are looked up, A is bounded alone.
      if (highMinus - lowMinus > byBlock) {
        if (!outsideMoreThan(slack, first.firstPart, first.firstKeySums, freshFirst, freshKeys)) {
          for (const second of partnersOf(blockIndexOf(sorted), freshBlocks, freshFirst, freshKeys, first, -1, a - n - slack, a - n + slack, threshold) as K[]) {
            if (second !== first && !occupiedApartMoreThan(slack, freshOccupied, first.occupied, 0, second.occupied, 0, -1) && !leavesMoreThan(slack, freshFirst, freshKeys, first, second, -1)) yield { first, second, sign: -1 };
          }
        }
      } else {
        for (let j = lowMinus; j < highMinus; j++) {
          if (j !== i && !occupiedApartMoreThan(slack, freshOccupied, occupied, i * WORDS, occupied, j * WORDS, -1) && !(blocksProve && noBlockUntouched(freshBlocks, blocks, i * BLOCKS, j * BLOCKS, -1)) && !leavesMoreThan(slack, freshFirst, freshKeys, first, sorted[j]!, -1)) yield { first, second: sorted[j]!, sign: -1 };
        }
      }
    }
    while (highPlus > 0 && counts[highPlus - 1]! > n - a + slack) highPlus--;
    while (lowPlus > 0 && counts[lowPlus - 1]! >= n - a - slack) lowPlus--;
    if (lowPlus > highPlus) lowPlus = highPlus;
    // Each unordered pair once: B after A.
    const from = Math.max(lowPlus, i + 1);
    if (from < highPlus) {
      if (highPlus - from > byBlock) {
        if (!outsideMoreThan(slack, freshFirst, freshKeys, first.firstPart, first.firstKeySums)) {
          for (const second of partnersOf(blockIndexOf(sorted), freshBlocks, freshFirst, freshKeys, first, 1, n - a - slack, n - a + slack, threshold) as K[]) {
            if (byCount(second, first) > 0 && !occupiedApartMoreThan(slack, freshOccupied, first.occupied, 0, second.occupied, 0, 1) && !leavesMoreThan(slack, freshFirst, freshKeys, first, second, 1)) yield { first, second, sign: 1 };
          }
        }
      } else {
        for (let j = from; j < highPlus; j++) {
          if (!occupiedApartMoreThan(slack, freshOccupied, occupied, i * WORDS, occupied, j * WORDS, 1) && !(blocksProve && noBlockUntouched(freshBlocks, blocks, i * BLOCKS, j * BLOCKS, 1)) && !leavesMoreThan(slack, freshFirst, freshKeys, first, sorted[j]!, 1)) yield { first, second: sorted[j]!, sign: 1 };
        }
      }
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
