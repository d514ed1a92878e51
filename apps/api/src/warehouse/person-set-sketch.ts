import { KEY_RANGE } from './perturbation';

/**
 * A set-difference sketch of the persons behind one released answer: an invertible Bloom lookup
 * table (Goodrich and Mitzenmacher, 2011) over their secret record keys. Every person adds 1 and
 * their key to one cell in each of three parts of the table; the cell of a part is a slice of the key
 * itself (the keys are uniform random, so the slices are independent hashes). Subtracting two
 * sketches cancels every person the two sets share, and what is left is peeled one person at a
 * time, so the size of the difference between two answers is read exactly when it is small,
 * whatever the size of the sets: 384 cells of three numbers, about 7 kB a released answer.
 *
 * The statement that counts an answer also gives each demographic group's record keys (one scan,
 * `aggregateStatement` in cohort-compiler.ts), and the API makes the sketches from them
 * (`splitAggregateRows` in cohort-results.ts): no second pass over the persons. A cohort
 * definition's steps are sketched the same way, from the record keys of each set of steps' persons
 * (`readDefinitionAnswer`).
 */
export const SKETCH_PARTS = 3;
export const CELLS_PER_PART = 128;
export const SKETCH_CELLS = SKETCH_PARTS * CELLS_PER_PART;

/** The cell of a record key in part `part` (0–2): bits 8·part to 8·part + 6 of the 24-bit key. */
export const cellOf = (key: number, part: number) => (key >>> (8 * part)) & (CELLS_PER_PART - 1);

/**
 * A check value of a key, summed per cell beside the keys: a cell that seems to hold one person
 * (count ±1) is taken for pure only if its check sum is that key's check, so a cell mixing several
 * persons is not peeled as one (a chance of 1 in 65,521). Below 2^16 a person, so a cell's sum of a
 * million persons stays exact.
 */
export const CHECK_MODULUS = 65_521;
/**
 * The checks of the residues modulo CHECK_MODULUS: (key² + key) mod M depends only on key mod M, so
 * a key's check is read from this table with an integer remainder, not computed with a remainder of
 * a 48-bit product (a floating-point remainder: ~2.5 of the ~12 ms a definition answer took to sketch and add up).
 */
const CHECKS = Int32Array.from({ length: CHECK_MODULUS }, (_, residue) => (residue * residue + residue) % CHECK_MODULUS);
/** Quadratic, not linear: the check of a sum of keys is not the sum of their checks. Keys are 0 to KEY_RANGE − 1. */
export const checkOf = (key: number) => CHECKS[key % CHECK_MODULUS]!;

export interface PersonSetSketch {
  /** Persons per cell, `SKETCH_CELLS` of them, part after part. */
  counts: number[];
  /** The sum of their record keys per cell. */
  keySums: number[];
  /** The sum of their keys' check values per cell. */
  checkSums: number[];
}

const zeros = () => new Array<number>(SKETCH_CELLS).fill(0);
export const emptySketch = (): PersonSetSketch => ({ counts: zeros(), keySums: zeros(), checkSums: zeros() });

/** Adds `count` persons whose keys (and checks) add up to `keySum` (`checkSum`) in cell `cell` of `part`. */
export function addToSketch(sketch: PersonSetSketch, part: number, cell: number, count: number, keySum: number, checkSum: number): void {
  const i = part * CELLS_PER_PART + cell;
  sketch.counts[i]! += count;
  sketch.keySums[i]! += keySum;
  sketch.checkSums[i]! += checkSum;
}

/** A sketch's cells being filled (`sketchKeys`) before they are added to the sketches of the sets that hold them (`addCells`). */
export interface SketchCells {
  counts: Float64Array;
  keySums: Float64Array;
  checkSums: Float64Array;
}

export const emptyCells = (): SketchCells => ({ counts: new Float64Array(SKETCH_CELLS), keySums: new Float64Array(SKETCH_CELLS), checkSums: new Float64Array(SKETCH_CELLS) });

/** Sketches' cells up to this many (4.4 MB) are lent from one buffer kept between answers; more get a buffer of their own. */
const KEPT_CELLS_SKETCHES = 500;
let keptCells: Float64Array | null = null;
let keptCellsLent = false;

/**
 * Lends `count` empty sketches' cells, views of one buffer, to `use`, which must be synchronous and
 * must not keep them. An answer sketches hundreds of groups: a typed array each (an allocation
 * outside the heap) cost more than sketching their keys, and a new buffer each answer (2.2 MB for
 * 237 sets) made V8 collect the whole heap more often, which in the API's heap cost ~6 ms an answer:
 * one buffer is kept and lent again.
 */
export function withCellsList<T>(count: number, use: (cells: SketchCells[]) => T): T {
  const length = count * 3 * SKETCH_CELLS;
  const lend = !keptCellsLent && count <= KEPT_CELLS_SKETCHES;
  let buffer: Float64Array;
  if (lend) {
    if (!keptCells || keptCells.length < length) keptCells = new Float64Array(length);
    buffer = keptCells.subarray(0, length);
    buffer.fill(0);
    keptCellsLent = true;
  } else buffer = new Float64Array(length);
  try {
    const cells = Array.from({ length: count }, (_cells, i) => {
      const at = i * 3 * SKETCH_CELLS;
      return {
        counts: buffer.subarray(at, at + SKETCH_CELLS),
        keySums: buffer.subarray(at + SKETCH_CELLS, at + 2 * SKETCH_CELLS),
        checkSums: buffer.subarray(at + 2 * SKETCH_CELLS, at + 3 * SKETCH_CELLS),
      };
    });
    const result = use(cells);
    // Cells read after an await could be another answer's by then.
    if (result instanceof Promise) throw new Error('sketch cells were lent to an asynchronous function');
    return result;
  } finally {
    if (lend) keptCellsLent = false;
  }
}

/**
 * The sketch of a list of record keys, in `cells` (cleared first). On typed arrays: the API sketches
 * every demographic group of an explorer answer with it (a definition's rows go straight to their
 * sets' sketches, `addKeysToCells`).
 */
export function sketchKeys(keys: ArrayLike<number>, cells: SketchCells): void {
  cells.counts.fill(0);
  cells.keySums.fill(0);
  cells.checkSums.fill(0);
  addKeysToCells(keys, cells);
}

/** Adds a list of record keys to the sketch in `cells`, and to the one in `also` when given (one pass over the keys for two sets that hold them). */
export function addKeysToCells(keys: ArrayLike<number>, cells: SketchCells, also?: SketchCells): void {
  const { counts, keySums, checkSums } = cells;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const check = checkOf(key);
    for (let part = 0, first = 0; part < SKETCH_PARTS; part++, first += CELLS_PER_PART) {
      const cell = first + cellOf(key, part);
      counts[cell]! += 1;
      keySums[cell]! += key;
      checkSums[cell]! += check;
      if (also) {
        also.counts[cell]! += 1;
        also.keySums[cell]! += key;
        also.checkSums[cell]! += check;
      }
    }
  }
}

/** Adds the cells (or the sketch) of a set of persons to the sketch of a set that holds them (a sketch is a sum). */
export function addCells(target: SketchCells | PersonSetSketch, { counts, keySums, checkSums }: SketchCells | PersonSetSketch): void {
  for (let cell = 0; cell < SKETCH_CELLS; cell++) {
    if (counts[cell] === 0) continue;
    target.counts[cell]! += counts[cell]!;
    target.keySums[cell]! += keySums[cell]!;
    target.checkSums[cell]! += checkSums[cell]!;
  }
}

/** The sketch of a list of keys. */
export function sketchOfKeys(keys: Iterable<number>): PersonSetSketch {
  const cells = emptyCells();
  sketchKeys(Array.from(keys), cells);
  const sketch = emptySketch();
  addCells(sketch, cells);
  return sketch;
}

/**
 * How many persons are in one set and not the other (the size of the symmetric difference), read
 * from two sketches; undefined when the difference is too large to peel (hundreds of persons, or
 * more). Peeling stops at `limit` found persons: past it only "at least limit" matters.
 */
export function sketchDifference(a: PersonSetSketch, b: PersonSetSketch, limit = Infinity): number | undefined {
  const counts = a.counts.map((n, i) => n - b.counts[i]!);
  const sums = a.keySums.map((s, i) => s - b.keySums[i]!);
  const checks = a.checkSums.map((s, i) => s - b.checkSums[i]!);
  const pure = (i: number): number | undefined => {
    const sign = counts[i];
    if (sign !== 1 && sign !== -1) return undefined;
    const key = sums[i]! * sign;
    if (!Number.isInteger(key) || key < 0 || key >= KEY_RANGE) return undefined;
    if (checks[i]! * sign !== checkOf(key)) return undefined;
    return cellOf(key, Math.floor(i / CELLS_PER_PART)) === i % CELLS_PER_PART ? key : undefined;
  };
  let found = 0;
  const queue: number[] = [];
  for (let i = 0; i < SKETCH_CELLS; i++) if (pure(i) !== undefined) queue.push(i);
  while (queue.length > 0) {
    const i = queue.pop()!;
    const key = pure(i);
    if (key === undefined) continue;
    const sign = counts[i]!;
    found++;
    if (found >= limit) return found;
    // More persons than cells cannot be peeled from a true difference: a false pure cell started a loop.
    if (found > SKETCH_CELLS) return undefined;
    for (let part = 0; part < SKETCH_PARTS; part++) {
      const j = part * CELLS_PER_PART + cellOf(key, part);
      counts[j]! -= sign;
      sums[j]! -= sign * key;
      checks[j]! -= sign * checkOf(key);
      if (pure(j) !== undefined) queue.push(j);
    }
  }
  return counts.every((n) => n === 0) && sums.every((s) => s === 0) && checks.every((c) => c === 0) ? found : undefined;
}
