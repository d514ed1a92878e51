import { and, asc, eq, getTableColumns, gt, inArray, sql } from 'drizzle-orm';
import type { QueryResult } from '@hdp/contract';
import { appendAuditEntry, type AuditContext } from '../audit/audit-trail';
import type { Database, DbOrTx } from '../db/database';
import { releasedAnswers } from '../db/schema';
import { candidateCombinations, isNear, keptCounts, withKept, type KeptCounts } from './ledger-combinations';
import { CELLS_PER_PART, sketchDifference, type PersonSetSketch } from './person-set-sketch';

/**
 * The tracker defence: no two released answers may differ by a small number of persons.
 *
 * Cell-key perturbation gives the same persons the same noise, and different sets independent
 * noise. A tracker (Denning, 1980) asks many *different* pairs of sets that differ by the same small
 * set S (`S or X` and `X and not S`, for many large X), and the mean of the pairs' differences is
 * |S|. Every such pair has two answers whose persons differ by 1 to threshold − 1. So every answer
 * with fresh counts is kept here with a sketch of its persons, and a new answer is checked against
 * every kept answer of the same dataset (any user's, for the dataset's life) whose true count is
 * within threshold − 1 of its own (no closer set can be further in count); the first one in the
 * order they were released decides:
 *
 * - **the same persons** (difference 0): the kept answer again, so one set always answers the same;
 * - **1 to threshold − 1 persons apart**: the answer is *withheld* (every count hidden), and the
 *   withholding is audited (`DISCLOSURE_TRACKER_SUSPECTED`) in the same transaction;
 * - **none near**: the fresh answer is released and kept.
 *
 * Why withholding leaks nothing: it says only that the two sets differ by 1 to threshold − 1 persons,
 * which is what the answer to "persons in one and not the other" would itself show ("< 20"); the
 * attacker who built the pair knew it. No count of the second set is released, so the pair gives no
 * difference to average. An answer hidden whole (below the threshold) releases nothing and is
 * neither checked nor kept. A withheld answer is not kept either: asked again, it meets the same
 * earlier answer and is withheld again, so the same persons still answer the same.
 */

/** What released a fresh answer, and who asked: written into the kept answer and the audit entry. */
export interface ReleaseContext {
  db: Database;
  /** `explorer`, `cohort`, `dataset-summary`, …: a new kind of aggregate names itself here. */
  kind: string;
  /** Which answer (an execution id, a cohort version, `unsaved`); shown to stewards with the audit entry. */
  reference: string | null;
  audit: AuditContext;
}

/** The fresh answer of the warehouse, before the ledger has decided, with what the ledger keeps of it. */
export interface FreshAnswer {
  dataset: string;
  result: QueryResult;
  /** The true number of persons (never released). */
  personCount: number;
  sketch: PersonSetSketch;
}

/** What a withheld answer says in place of counts. */
export const WITHHELD_LABEL = 'withheld';
export const withheldReason = (threshold: number) =>
  `These persons differ from those of an earlier answer by fewer than ${threshold}; the counts are withheld, since comparing the two answers would show how many.`;
/** What an answer says of the cells the ledger withheld (each shows `withheld`). */
export const cellsWithheldReason = (threshold: number) =>
  `Cells shown as withheld hold persons who differ from those of an earlier answer (or of one of its cells) by fewer than ${threshold}; other cells may be suppressed with them, so that they cannot be worked out from the rest.`;

/** A breakdown cell of a fresh answer, with its persons' sketch: a released count of persons like the answer's own. */
export interface SketchedCell {
  /** Its index in the answer's audited table. */
  index: number;
  breakdown: string;
  key: string;
  label: string;
  /** The true number of its persons (never released). */
  personCount: number;
  /** What it shows when shown (its perturbed count). */
  shown: number;
  sketch: PersonSetSketch;
}

/** The cells of a fresh answer, which of them it shows, and how to release it with some of them withheld (suppressed again, the withheld ones as primary cells). */
export interface CellRelease {
  cells: SketchedCell[];
  shown: (index: number) => boolean;
  withhold: (primary: number[]) => Promise<{ result: QueryResult; shown: (index: number) => boolean }>;
}

/** What a withheld answer says when it is near a combination of two earlier answers. */
export const withheldByCombinationReason = (threshold: number) =>
  `These persons differ by fewer than ${threshold} from what two earlier answers make together (one added to or taken from the other); the counts are withheld, since combining the three answers would show how many.`;

/**
 * What each process holds of a dataset's ledger, so that no check reads whole sketches it does not
 * need: every kept set's (answers' and cells') true count and the counts of the first part of its
 * sketch, which bound how far apart two sets are (`firstPartsApartMoreThan`); whole sketches are read
 * from the database only for the kept sets that pass. The combination check's kept answers
 * (ledger-combinations.ts) are held beside them. Only what was kept since the last read is read (under
 * the dataset's lock, so none is missed). Kept sets never change and are never deleted while their
 * dataset is served.
 */
interface HeldLedger {
  /** The last kept set's id read. */
  lastId: number;
  /** Kept sets in the order they were kept: id and whether it is a cell. */
  ids: number[];
  isCell: boolean[];
  /** Per kept set, `CELLS_PER_PART` counts of its sketch's first part, capped at `FIRST_PART_CAP`. */
  firstParts: Uint16Array;
  /** Kept sets (their places in `ids`, in order) by true count. */
  byCount: Map<number, number[]>;
  /** Whole answers only, sorted by count, for the combination check. */
  answers: KeptCounts[];
  /** The read when the process started, while it lasts (`readLedgerAhead`). */
  readingAhead: Promise<void> | null;
}
const heldLedgers = new WeakMap<object, Map<string, HeldLedger>>();

/**
 * A first-part count is held in 16 bits. Capping both of two counts never widens the gap between
 * them, so capped counts still bound a difference from below (a cell of 65,535 persons or more is
 * one of a set of some 8 million).
 */
const FIRST_PART_CAP = 65_535;
export const firstPartOf = (counts: readonly number[]) => Uint16Array.from(counts.slice(0, CELLS_PER_PART), (n) => Math.min(FIRST_PART_CAP, Math.max(0, n)));

/**
 * Whether two sets are more than `slack` persons apart by their first parts: every person in one and
 * not the other is in one cell of that part, so a cell whose counts differ by d has d of them at
 * least. A pair `sketchDifference` finds within `slack` never exceeds it (what it peels accounts for
 * every cell's difference), so skipping the pairs this rules out changes no decision. Unrelated sets
 * of the same size are ruled out after a few cells; nested ones (the tracker's) pass.
 */
export function firstPartsApartMoreThan(slack: number, fresh: Uint16Array, held: Uint16Array, at: number): boolean {
  let apart = 0;
  for (let i = 0; i < CELLS_PER_PART; i++) {
    apart += Math.abs(fresh[i]! - held[at + i]!);
    if (apart > slack) return true;
  }
  return false;
}

/** Kept sets read a page at a time: a page's first parts are some 2 MB of text. */
const PAGE = 10_000;

function heldLedgerOf(db: Database, dataset: string): HeldLedger {
  let byDataset = heldLedgers.get(db);
  if (!byDataset) heldLedgers.set(db, (byDataset = new Map()));
  let held = byDataset.get(dataset);
  if (!held) byDataset.set(dataset, (held = { lastId: 0, ids: [], isCell: [], firstParts: new Uint16Array(0), byCount: new Map(), answers: [], readingAhead: null }));
  return held;
}

/** Reads into `held` what was kept after its last id, page by page. */
async function readKept(tx: DbOrTx, held: HeldLedger, dataset: string): Promise<void> {
  for (;;) {
    // Only the first part's counts and key sums (a ninth of a sketch, in a column of its own).
    const rows = await tx
      .select({ id: releasedAnswers.id, personCount: releasedAnswers.personCount, isCell: sql<boolean>`${releasedAnswers.cell} is not null`, firstPart: sql<string>`array_to_string(${releasedAnswers.sketchFirstPart}, ' ')` })
      .from(releasedAnswers)
      .where(and(eq(releasedAnswers.dataset, dataset), gt(releasedAnswers.id, held.lastId)))
      .orderBy(asc(releasedAnswers.id))
      .limit(PAGE);
    // Another read (the read-ahead, or an answer's) may have taken some of them meanwhile.
    // As text: the drivers' parsing of an integer array took most of the read.
    const added = rows
      .filter((row) => row.id > held.lastId)
      .map((row) => {
        const firstPart = row.firstPart.split(' ').map(Number);
        return { ...row, counts: firstPart.slice(0, CELLS_PER_PART), keySums: firstPart.slice(CELLS_PER_PART) };
      });
    if (added.length > 0) {
      const first = held.ids.length;
      const parts = new Uint16Array((first + added.length) * CELLS_PER_PART);
      parts.set(held.firstParts);
      added.forEach((row, k) => {
        const at = first + k;
        held.ids.push(row.id);
        held.isCell.push(row.isCell);
        parts.set(firstPartOf(row.counts), at * CELLS_PER_PART);
        const sameCount = held.byCount.get(row.personCount);
        if (sameCount) sameCount.push(at);
        else held.byCount.set(row.personCount, [at]);
      });
      held.firstParts = parts;
      // Whole answers only: the combination check is not run over cells (docs/data-explorer.md says why).
      const answers = added.filter((row) => !row.isCell);
      if (answers.length > 0) held.answers = withKept(held.answers, answers.map((a) => keptCounts(a.id, a.personCount, { counts: a.counts, keySums: a.keySums, checkSums: [] })));
      held.lastId = added[added.length - 1]!.id;
    }
    if (rows.length < PAGE) return;
  }
}

/** The dataset's held ledger, with what was kept since it was last read. Called under the dataset's lock, so nothing kept before is missed. */
async function heldLedger(tx: DbOrTx, db: Database, dataset: string): Promise<HeldLedger> {
  const held = heldLedgerOf(db, dataset);
  // A read-ahead on a connection of its own is waited for rather than done again under the lock.
  if (held.readingAhead) await held.readingAhead;
  await readKept(tx, held, dataset);
  return held;
}

/**
 * Reads a dataset's ledger ahead of its first answer (when the process starts), outside any lock:
 * kept sets are committed under the dataset's lock in the order of their ids, so what a read sees
 * is all that was kept up to some id, and the first answer reads only what was kept since.
 * `ownConnection`: the database has connections to spare (PostgreSQL), so an answer arriving
 * meanwhile waits for this read instead of doing it again; the embedded database runs one
 * transaction at a time, so there an answer reads on and this read takes what is left.
 */
export async function readLedgerAhead(db: Database, dataset: string, { ownConnection }: { ownConnection: boolean }): Promise<void> {
  const held = heldLedgerOf(db, dataset);
  const reading = readKept(db, held, dataset);
  if (ownConnection) held.readingAhead = reading.catch(() => undefined);
  try {
    await reading;
  } finally {
    if (ownConnection) held.readingAhead = null;
  }
}

/**
 * The kept sets whose count is within `slack` of `personCount` and whose first part does not rule
 * them out, in the order they were kept: the only ones that can be near a fresh set.
 */
function candidatesNear(held: HeldLedger, personCount: number, sketch: PersonSetSketch, slack: number): number[] {
  const fresh = firstPartOf(sketch.counts);
  const found: number[] = [];
  for (let count = personCount - slack; count <= personCount + slack; count++) {
    for (const at of held.byCount.get(count) ?? []) if (!firstPartsApartMoreThan(slack, fresh, held.firstParts, at * CELLS_PER_PART)) found.push(at);
  }
  return found.sort((a, b) => a - b);
}

/** What `released_answers.sketch_first_part` holds of a sketch: the first part's counts, then its key sums modulo 2³². */
export const sketchFirstPart = (sketch: PersonSetSketch): number[] => [
  ...sketch.counts.slice(0, CELLS_PER_PART),
  ...Int32Array.from(sketch.keySums.slice(0, CELLS_PER_PART)),
];

/** The whole sketches of kept sets (by their places in `held.ids`), read in one statement or a few. */
async function wholeSketches(tx: DbOrTx, held: HeldLedger, places: Iterable<number>): Promise<Map<number, PersonSetSketch>> {
  const ids = [...new Set([...places].map((at) => held.ids[at]!))];
  const sketches = new Map<number, PersonSetSketch>();
  for (let from = 0; from < ids.length; from += 1000) {
    const rows = await tx.select({ id: releasedAnswers.id, sketch: releasedAnswers.sketch }).from(releasedAnswers).where(inArray(releasedAnswers.id, ids.slice(from, from + 1000)));
    for (const row of rows) sketches.set(row.id, row.sketch);
  }
  return sketches;
}

/** The first pair of kept answers whose sum or difference is within 1 to threshold − 1 persons of the fresh answer (ledger-combinations.ts). */
async function nearKeptCombination(tx: DbOrTx, held: HeldLedger, fresh: FreshAnswer, threshold: number) {
  const sketches = new Map<number, PersonSetSketch>();
  const sketchOf = async (id: number) => {
    let sketch = sketches.get(id);
    if (!sketch) {
      const [row] = await tx.select({ sketch: releasedAnswers.sketch }).from(releasedAnswers).where(eq(releasedAnswers.id, id));
      sketches.set(id, (sketch = row!.sketch));
    }
    return sketch;
  };
  for (const pair of candidateCombinations(fresh, held.answers, threshold)) {
    if (isNear(fresh.sketch, await sketchOf(pair.first.id), await sketchOf(pair.second.id), pair.sign, threshold)) return pair;
  }
  return undefined;
}

/** A kept set as a decision reads it: everything but its sketch (7 kB of JSON, already compared by then). */
const { sketch: _sketch, sketchFirstPart: _firstPart, ...keptColumns } = getTableColumns(releasedAnswers);
type KeptRow = Omit<typeof releasedAnswers.$inferSelect, 'sketch' | 'sketchFirstPart'>;
const keptRow = async (tx: DbOrTx, id: number): Promise<KeptRow> => (await tx.select(keptColumns).from(releasedAnswers).where(eq(releasedAnswers.id, id)))[0]!;

/** What the audit entry says of a kept answer. */
const describeKept = (kept: KeptRow) => ({
  id: kept.id,
  kind: kept.kind,
  reference: kept.reference,
  user_id: kept.userId,
  released_at: kept.createdAt.toISOString(),
  person_count_shown: kept.result?.person_count_display ?? String(kept.cell?.shown),
  ...(kept.cell && { cell: { breakdown: kept.cell.breakdown, key: kept.cell.key, label: kept.cell.label } }),
});
const nameOf = (kept: { kind: string; reference: string | null; cell?: { breakdown: string; label: string } | null }) =>
  `${kept.kind}${kept.reference ? ` ${kept.reference}` : ''}${kept.cell ? `, cell ${kept.cell.breakdown} ${kept.cell.label}` : ''}`;

/** Serialises decisions on one dataset, so two near answers asked at the same instant cannot both be fresh. */
const lockDataset = (tx: DbOrTx, dataset: string) => tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`released_answers:${dataset}`}))`);

/**
 * The answer with nothing in it but why: no count, and no breakdown cells either, since which
 * categories have cells (a race present, an age band) would tell something of the difference.
 */
export function withheldResult(result: QueryResult, reason = withheldReason(result.suppression_threshold)): QueryResult {
  // The attrition goes too: its rows are counts of the same persons.
  const { attrition: _attrition, ...rest } = result;
  return {
    ...rest,
    person_count: null,
    person_count_display: WITHHELD_LABEL,
    breakdowns: { sex: [], age_band: [], race: [], ethnicity: [], sex_by_age_band: [] },
    withheld: reason,
  };
}

/**
 * The audit entry of a release the tracker defence withheld (the whole answer or some of its cells):
 * `what` says what was withheld and why, after the person and the answer. Never the size of a
 * difference in it: that is the small count being protected.
 */
function auditWithheld(tx: DbOrTx, release: ReleaseContext, threshold: number, what: string, details: Record<string, unknown>) {
  return appendAuditEntry(tx, release.audit, {
    eventType: 'DISCLOSURE_TRACKER_SUSPECTED',
    outcome: 'DENIED',
    message: `${release.audit.actorEmail ?? 'An answer'} (${nameOf(release)}) ${what}`,
    resourceType: release.kind,
    resourceId: release.reference,
    details: { kind: release.kind, reference: release.reference, threshold, ...details },
  });
}

/**
 * Decides what a fresh answer releases (see above), in one transaction with its kept copy or its
 * audit entry. Answers the released result.
 */
export async function settleRelease(fresh: FreshAnswer, release: ReleaseContext, cellRelease?: CellRelease): Promise<QueryResult> {
  const { result } = fresh;
  if (result.person_count === null) return result;
  const threshold = result.suppression_threshold;
  return release.db.transaction(async (tx) => {
    await lockDataset(tx, fresh.dataset);
    const held = await heldLedger(tx, release.db, fresh.dataset);
    // The whole sketches of the candidates only: a kept result is read once one is chosen. Kept
    // cells are in the same pool: an answer's persons may be near another answer's cell.
    const candidates = candidatesNear(held, fresh.personCount, fresh.sketch, threshold - 1);
    const sketches = await wholeSketches(tx, held, candidates);
    for (const at of candidates) {
      const kept = { id: held.ids[at]!, isCell: held.isCell[at]! };
      const difference = sketchDifference(fresh.sketch, sketches.get(kept.id)!, threshold);
      if (difference === undefined || difference >= threshold) continue;
      // The same persons as a kept cell: its count is this answer's (the same persons, the same
      // perturbation), but the answer is a whole one of its own.
      if (difference === 0 && kept.isCell) continue;
      const earlier = await keptRow(tx, kept.id);
      if (difference === 0) {
        // The same persons answer the same. The steps that led to them are this question's own: an
        // earlier question's attrition is not this one's, and a question without steps shows none.
        const { attrition: _earlierSteps, ...earlierCounts } = earlier.result!;
        return { ...earlierCounts, ...(result.attrition ? { attrition: result.attrition } : {}), execution_time_ms: result.execution_time_ms };
      }
      const withheld = withheldResult(result);
      await auditWithheld(tx, release, threshold, `was withheld: its persons differ from those of an earlier answer (${nameOf(earlier)}) by fewer than ${threshold}`, {
        earlier_answer: describeKept(earlier),
      });
      return withheld;
    }
    const combination = await nearKeptCombination(tx, held, fresh, threshold);
    if (combination) {
      const [first, second] = await Promise.all(
        [combination.first, combination.second].map((kept) => keptRow(tx, kept.id)),
      );
      const how = combination.sign === 1 ? 'with' : 'less';
      await auditWithheld(
        tx,
        release,
        threshold,
        `was withheld: its persons differ from those of an earlier answer (${nameOf(first!)}) ${how} those of another (${nameOf(second!)}) by fewer than ${threshold}`,
        { earlier_answer: describeKept(first!), combined_with: { ...describeKept(second!), combined_as: combination.sign === 1 ? 'added' : 'taken away' } },
      );
      return withheldResult(result, withheldByCombinationReason(threshold));
    }
    const released = cellRelease ? await settleCells(tx, held, fresh, release, cellRelease) : { result, keep: [] };
    await tx.insert(releasedAnswers).values({
      dataset: fresh.dataset,
      kind: release.kind,
      reference: release.reference,
      userId: release.audit.actorId ?? null,
      personCount: fresh.personCount,
      sketch: fresh.sketch,
      sketchFirstPart: sketchFirstPart(fresh.sketch),
      result: released.result,
    });
    // Each shown cell is kept too, unless the pool holds its persons already (a repeat adds nothing).
    if (released.keep.length > 0) {
      await tx.insert(releasedAnswers).values(
        released.keep.map((cell) => ({
          dataset: fresh.dataset,
          kind: release.kind,
          reference: release.reference,
          userId: release.audit.actorId ?? null,
          personCount: cell.personCount,
          sketch: cell.sketch,
          sketchFirstPart: sketchFirstPart(cell.sketch),
          result: null,
          cell: { breakdown: cell.breakdown, key: cell.key, label: cell.label, shown: cell.shown },
        })),
      );
    }
    return released.result;
  });
}

/**
 * The breakdown cells of an answer whose persons the ledger released (its total is not near any
 * kept set): each shown cell is compared with every kept set, whole answers' and cells', whose true
 * count is within threshold − 1 of its own and whose first part does not rule it out (`candidatesNear`). A near one (1 to threshold − 1 persons apart) is
 * withheld, as a primary suppression: the answer is suppressed again with it, so the person count
 * less the shown cells does not give it back, and the withholding is audited in the same
 * transaction. A cell with the same persons as a kept set shows what that set showed (the same
 * persons, the same perturbation) and is not kept again. Answers the released result and the cells
 * to keep.
 */
async function settleCells(tx: DbOrTx, held: HeldLedger, fresh: FreshAnswer, release: ReleaseContext, cellRelease: CellRelease): Promise<{ result: QueryResult; keep: SketchedCell[] }> {
  const threshold = fresh.result.suppression_threshold;
  const slack = threshold - 1;
  const cells = cellRelease.cells.filter((cell) => cellRelease.shown(cell.index));
  if (cells.length === 0) return { result: fresh.result, keep: [] };
  // The candidates of every cell, from the held ledger; one read of their whole sketches.
  const candidates = cells.map((cell) => candidatesNear(held, cell.personCount, cell.sketch, slack));
  const sketches = await wholeSketches(tx, held, candidates.flat());
  const withheld: { cell: SketchedCell; keptId: number }[] = [];
  const known = new Set<number>();
  cells.forEach((cell, c) => {
    for (const at of candidates[c]!) {
      const keptId = held.ids[at]!;
      const difference = sketchDifference(cell.sketch, sketches.get(keptId)!, threshold);
      if (difference === undefined || difference >= threshold) continue;
      if (difference === 0) {
        known.add(cell.index);
        continue;
      }
      withheld.push({ cell, keptId });
      break;
    }
    // The answer's own persons (a breakdown with one category): kept once, as the answer.
    if (cell.personCount === fresh.personCount && sketchDifference(cell.sketch, fresh.sketch, 1) === 0) known.add(cell.index);
  });
  if (withheld.length === 0) return { result: fresh.result, keep: cells.filter((c) => !known.has(c.index)) };
  const again = await cellRelease.withhold(withheld.map((w) => w.cell.index));
  const primary = new Set(withheld.map((w) => w.cell.index));
  const earlier = new Map<number, KeptRow>();
  for (const { keptId } of withheld) {
    if (!earlier.has(keptId)) earlier.set(keptId, await keptRow(tx, keptId));
  }
  await auditWithheld(
    tx,
    release,
    threshold,
    `had ${withheld.length === 1 ? 'a cell' : `${withheld.length} cells`} withheld: ${withheld
      .map(({ cell, keptId }) => `${cell.breakdown} ${cell.label}, whose persons differ from those of an earlier answer (${nameOf(earlier.get(keptId)!)}) by fewer than ${threshold}`)
      .join('; ')}`,
    {
      withheld_cells: withheld.map(({ cell, keptId }) => ({ breakdown: cell.breakdown, key: cell.key, label: cell.label, earlier_answer: describeKept(earlier.get(keptId)!) })),
      earlier_answer: describeKept(earlier.get(withheld[0]!.keptId)!),
    },
  );
  return { result: again.result, keep: cells.filter((c) => !known.has(c.index) && !primary.has(c.index) && again.shown(c.index)) };
}
