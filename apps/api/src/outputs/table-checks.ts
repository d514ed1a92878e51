import { parse } from 'csv-parse/sync';
import type { CheckFinding, CheckVerdict } from '@hdp/contract';

/** Bumped whenever a check changes what it labels: kept with every result. */
export const CHECKS_VERSION = '1.0.0';

/** The most cells one finding lists (the message gives the full count). */
const MAX_CELLS_PER_FINDING = 200;

/** The parameters the checks run with (from the server's configuration and the file's declarations). */
export interface CheckParameters {
  min_count: number;
  zeros_disclosive: boolean;
  /** 0: rounding not required. */
  rounding_base: number;
  dominance_p: number;
  dominance_n: number;
  dominance_k: number;
  max_table_rows: number;
  magnitude_column: string | null;
}

/** A parsed table: its header and data rows (all strings, as written). */
export interface Table {
  header: string[];
  rows: string[][];
}

/** A table already released from the workbench, for the differencing check. */
export interface ReleasedTable {
  name: string;
  table: Table;
}

/** A file of the workbench's released data, for the identical/subset checks. */
export interface ReleasedDataFile {
  name: string;
  sha256: string;
  /** A table's column names, known without reading it whole. */
  header: readonly string[];
  /** Its rows by column (tables only), built lazily. */
  table?: () => Promise<Table | undefined>;
}

export interface CheckOutcome {
  verdict: CheckVerdict;
  findings: CheckFinding[];
}

/** Parses CSV or TSV text; throws with a readable message when it is not a table. */
export function parseTable(text: string, delimiter: ',' | '\t'): Table {
  const records = parse(text, { delimiter, bom: true, skip_empty_lines: true, relax_quotes: false }) as string[][];
  if (records.length === 0) throw new Error('The file holds no header row.');
  const [header, ...rows] = records;
  return { header: header!.map((h) => h.trim()), rows };
}

const MAGNITUDE_SUFFIX = ' [magnitude]';
const LABEL_SUFFIX = ' [label]';
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const isMissing = (value: string) => ['', 'na', 'nan', 'null', 'none', '.'].includes(value.trim().toLowerCase());
const ID_HEADER = /(^|[^a-z])(person|patient|subject|participant|pat)?[ _-]?id$/i;

/** How the checks read each column: a label, a count, a magnitude (with its top contributions), or another statistic. */
interface ColumnRoles {
  labels: number[];
  counts: number[];
  magnitudes: { index: number; contributions: number[] }[];
  /** Columns that hold the top contributions of a magnitude column: seen by the checks only. */
  contributions: Set<number>;
}

function columnRoles(table: Table, parameters: CheckParameters): ColumnRoles {
  const { header, rows } = table;
  const baseName = (h: string) => (h.endsWith(MAGNITUDE_SUFFIX) ? h.slice(0, -MAGNITUDE_SUFFIX.length) : h);
  const magnitudeIndexes = header
    .map((h, i) => (h.endsWith(MAGNITUDE_SUFFIX) || (parameters.magnitude_column !== null && h === parameters.magnitude_column) ? i : -1))
    .filter((i) => i >= 0);
  const contributions = new Set<number>();
  const magnitudes = magnitudeIndexes.map((index) => {
    const name = baseName(header[index]!);
    const tops: number[] = [];
    for (let k = 1; k <= parameters.dominance_n; k++) {
      const at = header.indexOf(`${name}__max${k}`);
      if (at >= 0) {
        tops.push(at);
        contributions.add(at);
      }
    }
    return { index, contributions: tops.length === parameters.dominance_n ? tops : [] };
  });
  const labels: number[] = [];
  const counts: number[] = [];
  header.forEach((h, i) => {
    if (magnitudeIndexes.includes(i) || contributions.has(i)) return;
    if (h.endsWith(LABEL_SUFFIX)) return labels.push(i);
    const values = rows.map((r) => r[i] ?? '').filter((v) => !isMissing(v));
    const numeric = values.length > 0 && values.every((v) => NUMBER.test(v.trim()));
    if (!numeric) return labels.push(i);
    if (values.every((v) => Number.isInteger(Number(v)))) counts.push(i);
  });
  return { labels, counts, magnitudes, contributions };
}

class Findings {
  readonly list: CheckFinding[] = [];
  add(check: string, verdict: CheckVerdict, message: (n: number) => string, cells: { row: number; column: string }[]): void {
    if (cells.length === 0) return;
    this.list.push({ check, verdict, message: message(cells.length), cells: cells.slice(0, MAX_CELLS_PER_FINDING) });
  }
  verdict(): CheckVerdict {
    if (this.list.some((f) => f.verdict === 'FAIL')) return 'FAIL';
    if (this.list.some((f) => f.verdict === 'REVIEW')) return 'REVIEW';
    return 'PASS';
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The cell checks of one table: counts, zeros, rounding, missing and negative values, dominance. */
function checkCells(table: Table, roles: ColumnRoles, parameters: CheckParameters, findings: Findings): void {
  const { header, rows } = table;
  const small: { row: number; column: string }[] = [];
  const zeros: typeof small = [];
  const unrounded: typeof small = [];
  const odd: typeof small = [];
  const dominated: typeof small = [];
  const uncheckable: typeof small = [];
  const countColumns = [...roles.counts];
  rows.forEach((row, r) => {
    const at = (i: number) => ({ row: r + 1, column: header[i]! });
    for (const i of countColumns) {
      const raw = row[i] ?? '';
      if (isMissing(raw)) {
        odd.push(at(i));
        continue;
      }
      const n = Number(raw);
      if (n < 0) odd.push(at(i));
      else if (n === 0) zeros.push(at(i));
      else if (n < parameters.min_count) small.push(at(i));
      if (parameters.rounding_base > 0 && n % parameters.rounding_base !== 0) unrounded.push(at(i));
    }
    for (const magnitude of roles.magnitudes) {
      const total = Number(row[magnitude.index]);
      if (!Number.isFinite(total) || isMissing(row[magnitude.index] ?? '')) {
        odd.push(at(magnitude.index));
        continue;
      }
      if (magnitude.contributions.length === 0) {
        uncheckable.push(at(magnitude.index));
        continue;
      }
      const tops = magnitude.contributions.map((i) => Math.abs(Number(row[i]))).sort((a, b) => b - a);
      const absTotal = Math.abs(total);
      if (absTotal === 0) continue;
      const topN = tops.reduce((a, b) => a + b, 0);
      // N-k: the N largest contributions make up more than k of the total.
      const nk = topN > parameters.dominance_k * absTotal;
      // p%: what is left once the two largest are taken away is less than p of the largest, so the
      // second-largest contributor could estimate the largest to within p percent.
      const rest = absTotal - (tops[0] ?? 0) - (tops[1] ?? 0);
      const p = rest < parameters.dominance_p * (tops[0] ?? 0);
      if (nk || p) dominated.push(at(magnitude.index));
    }
  });
  const t = parameters.min_count;
  findings.add('min_count', 'FAIL', (n) => `${plural(n, 'count')} below the minimum of ${t} (1 to ${t - 1}): suppress or combine them.`, small);
  findings.add(
    'zeros',
    parameters.zeros_disclosive ? 'FAIL' : 'REVIEW',
    (n) => `${plural(n, 'zero')}: a zero can say that nobody in a group has a condition${parameters.zeros_disclosive ? '' : ' (zeros are allowed here; a checker looks)'}.`,
    zeros,
  );
  findings.add('rounding', 'FAIL', (n) => `${plural(n, 'count')} not a multiple of ${parameters.rounding_base}: counts must be rounded.`, unrounded);
  findings.add('missing_or_negative', 'REVIEW', (n) => `${plural(n, 'cell')} missing or negative where a count or magnitude was expected.`, odd);
  findings.add(
    'dominance',
    'FAIL',
    (n) =>
      `${plural(n, 'magnitude cell')} dominated by a few contributors (N-k: the ${parameters.dominance_n} largest make up more than ${Math.round(parameters.dominance_k * 100)} %, or p %: the rest is under ${Math.round(parameters.dominance_p * 100)} % of the largest).`,
    dominated,
  );
  findings.add(
    'dominance_unchecked',
    'REVIEW',
    (n) => `${plural(n, 'magnitude cell')} whose dominance cannot be checked: add the columns ${Array.from({ length: parameters.dominance_n }, (_, k) => `<column>__max${k + 1}`).join(', ')} with each cell's largest contributions.`,
    uncheckable,
  );
}

/** Row-level data: identifier columns, and tables longer than any aggregate should be. */
function checkRowLevel(table: Table, personIds: ReadonlySet<string>, parameters: CheckParameters, findings: Findings): void {
  const { header, rows } = table;
  if (rows.length > parameters.max_table_rows) {
    findings.list.push({
      check: 'too_many_rows',
      verdict: 'FAIL',
      message: `${rows.length} rows, more than the ${parameters.max_table_rows} an aggregate table may have: this looks like row-level data.`,
      cells: [],
    });
  }
  if (personIds.size === 0 || rows.length === 0) return;
  header.forEach((h, i) => {
    const values = rows.map((r) => (r[i] ?? '').trim()).filter((v) => !isMissing(v));
    if (values.length === 0) return;
    const matching = rows.flatMap((r, index) => (personIds.has((r[i] ?? '').trim()) ? [{ row: index + 1, column: h }] : []));
    if (matching.length === 0) return;
    if (ID_HEADER.test(h)) {
      findings.add('person_ids', 'FAIL', (n) => `Column "${h}" holds ${plural(n, 'person identifier')} of the released data: row-level data may not leave.`, matching);
      return;
    }
    // Values alone can be counts that happen to equal ids (ids are small numbers too): a person looks.
    const distinct = new Set(values).size === values.length;
    if (distinct && values.length >= parameters.min_count && matching.length >= 0.9 * values.length) {
      findings.add('person_ids', 'REVIEW', (n) => `Column "${h}": ${plural(n, 'value')} of distinct values are person identifiers of the released data; a checker looks.`, matching);
    }
  });
}

const rowKey = (row: string[], columns: readonly number[]) => JSON.stringify(columns.map((i) => (row[i] ?? '').trim()));

/** A file that is, or whose rows all are, the workbench's released data. */
async function checkReleasedData(sha256: string, table: Table | undefined, released: readonly ReleasedDataFile[], findings: Findings): Promise<number> {
  let compared = 0;
  for (const file of released) {
    compared += 1;
    if (file.sha256 === sha256) {
      findings.list.push({ check: 'released_data', verdict: 'FAIL', message: `The file is identical to the released data file ${file.name}.`, cells: [] });
      return compared;
    }
  }
  if (!table || table.rows.length === 0) return compared;
  for (const file of released) {
    // Only a table holding every column of this one can hold its rows: the others are not read.
    if (!file.table || !table.header.every((h) => file.header.includes(h))) continue;
    const source = await file.table();
    if (!source) continue;
    const columns = table.header.map((h) => source.header.indexOf(h));
    if (columns.some((i) => i < 0)) continue;
    const keys = new Set(source.rows.map((r) => rowKey(r, columns)));
    const own = table.header.map((_, i) => i);
    if (table.rows.every((r) => keys.has(rowKey(r, own)))) {
      findings.list.push({
        check: 'released_data',
        verdict: 'FAIL',
        message: `Every row of the file is a row of the released data file ${file.name} (columns ${table.header.join(', ')}): row-level data may not leave.`,
        cells: [],
      });
      return compared;
    }
  }
  return compared;
}

/**
 * Differencing: set against a table already released from the workbench with the same column
 * labels, a cell with the same row labels whose count differs by less than the minimum reveals a
 * group that small (the difference of two safe tables is a third, unsafe one).
 */
function checkDifferencing(table: Table, roles: ColumnRoles, released: readonly ReleasedTable[], parameters: CheckParameters, findings: Findings): number {
  const sameHeader = released.filter((r) => r.table.header.length === table.header.length && r.table.header.every((h, i) => h === table.header[i]));
  if (roles.counts.length === 0) return sameHeader.length;
  const ownByKey = new Map(table.rows.map((row, index) => [rowKey(row, roles.labels), { row, index }]));
  for (const other of sameHeader) {
    const cells: { row: number; column: string }[] = [];
    for (const theirs of other.table.rows) {
      const mine = ownByKey.get(rowKey(theirs, roles.labels));
      if (!mine) continue;
      for (const i of roles.counts) {
        const a = Number(mine.row[i]);
        const b = Number(theirs[i]);
        if (!Number.isFinite(a) || !Number.isFinite(b)) continue;
        const difference = Math.abs(a - b);
        if (difference > 0 && difference < parameters.min_count) cells.push({ row: mine.index + 1, column: table.header[i]! });
      }
    }
    findings.add(
      'differencing',
      'FAIL',
      (n) => `${plural(n, 'cell')} differ by 1 to ${parameters.min_count - 1} from the same cells of ${other.name}, already released from this workbench: the difference reveals a small group.`,
      cells,
    );
  }
  return sameHeader.length;
}

/** Everything the checks compare a file with. */
export interface CheckContext {
  personIds: ReadonlySet<string>;
  releasedData: readonly ReleasedDataFile[];
  releasedTables: readonly ReleasedTable[];
}

/** The automatic checks of a table: cells, row-level data, released data and differencing. */
export async function checkTableFile(
  table: Table,
  sha256: string,
  parameters: CheckParameters,
  context: CheckContext,
): Promise<CheckOutcome & { compared: { released_data_files: number; released_tables: number } }> {
  const findings = new Findings();
  const roles = columnRoles(table, parameters);
  if (parameters.magnitude_column !== null && !table.header.includes(parameters.magnitude_column)) {
    findings.list.push({ check: 'magnitude_column', verdict: 'REVIEW', message: `The declared magnitude column "${parameters.magnitude_column}" is not in the header.`, cells: [] });
  }
  checkRowLevel(table, context.personIds, parameters, findings);
  checkCells(table, roles, parameters, findings);
  const releasedDataFiles = await checkReleasedData(sha256, table, context.releasedData, findings);
  const releasedTables = checkDifferencing(table, roles, context.releasedTables, parameters, findings);
  return { verdict: findings.verdict(), findings: findings.list, compared: { released_data_files: releasedDataFiles, released_tables: releasedTables } };
}

/** Files the checks do not read (images, PDFs, text): a person looks; a copy of released data still fails. */
export async function checkOtherFile(sha256: string, context: CheckContext): Promise<CheckOutcome> {
  const findings = new Findings();
  await checkReleasedData(sha256, undefined, context.releasedData, findings);
  findings.list.push({ check: 'not_a_table', verdict: 'REVIEW', message: 'Images, PDFs and other files are not checked automatically: a checker looks at them.', cells: [] });
  return { verdict: findings.verdict(), findings: findings.list };
}
