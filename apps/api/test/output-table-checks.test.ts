import { describe, expect, it } from 'vitest';
import { checkTableFile, parseTable, type CheckParameters } from '../src/outputs/table-checks';

/**
 * The automatic checks' rules on tables whose verdict is worked out by hand: what the HTTP suite
 * (outputs.test.ts) does not reach with the platform's defaults (rounding, zeros allowed, each
 * dominance rule alone, label columns, missing values, long tables, id-like values).
 */
const DEFAULTS: CheckParameters = {
  min_count: 10,
  zeros_disclosive: true,
  rounding_base: 0,
  dominance_p: 0.1,
  dominance_n: 2,
  dominance_k: 0.9,
  max_table_rows: 100,
  magnitude_column: null,
};
const NOTHING = { personIds: new Set<string>(), releasedData: [], releasedTables: [] };
const check = (csv: string, parameters: Partial<CheckParameters> = {}, context = NOTHING) =>
  checkTableFile(parseTable(csv, ','), 'sha', { ...DEFAULTS, ...parameters }, context);
const checks = async (...args: Parameters<typeof check>) => (await check(...args)).findings.map((f) => [f.check, f.verdict, f.cells.map((c) => `${c.row}:${c.column}`)]);

describe('the cell checks', () => {
  it('fails unrounded counts only when rounding is required', async () => {
    const csv = 'band,n\na,15\nb,20\n';
    expect(await checks(csv)).toEqual([]);
    expect(await checks(csv, { rounding_base: 5 })).toEqual([]);
    expect(await checks(csv, { rounding_base: 10 })).toEqual([['rounding', 'FAIL', ['1:n']]]);
  });

  it('sends zeros to review when they are allowed, and missing or negative counts to review always', async () => {
    expect(await checks('band,n\na,0\nb,20\n', { zeros_disclosive: false })).toEqual([['zeros', 'REVIEW', ['1:n']]]);
    expect((await check('band,n\na,0\nb,20\n', { zeros_disclosive: false })).verdict).toBe('REVIEW');
    expect(await checks('band,n\na,-3\nb,NA\nc,20\n')).toEqual([['missing_or_negative', 'REVIEW', ['1:n', '2:n']]]);
  });

  it('reads a numeric column marked [label] as labels, not counts', async () => {
    expect(await checks('year [label],n\n2019,40\n2020,50\n', { rounding_base: 100 })).toEqual([['rounding', 'FAIL', ['1:n', '2:n']]]);
    expect(await checks('year,n\n2019,40\n2020,50\n', { rounding_base: 100 })).toEqual([['rounding', 'FAIL', ['1:year', '1:n', '2:year', '2:n']]]);
  });

  it('applies N-k and p % dominance each on its own', async () => {
    // N-k only: the two largest make 95 % of 1000; the rest (50) is not under 10 % of the largest (500).
    const nk = 'region,n,cost [magnitude],cost__max1,cost__max2\nNorth,20,1000,500,450\n';
    expect(await checks(nk)).toEqual([['dominance', 'FAIL', ['1:cost [magnitude]']]]);
    expect(await checks(nk, { dominance_k: 0.96 })).toEqual([]);
    // p % only (with k raised to 0.99, so that N-k stays quiet: the two largest make 93 %): the rest,
    // 200, is under 10 % of the largest (210), so the second contributor learns the largest within 10 %.
    const p = 'region,n,cost,cost__max1,cost__max2\nNorth,20,3000,2100,700\n';
    expect(await checks(p, { magnitude_column: 'cost', dominance_k: 0.99 })).toEqual([['dominance', 'FAIL', ['1:cost']]]);
    expect(await checks(p, { magnitude_column: 'cost', dominance_k: 0.99, dominance_p: 0.05 })).toEqual([]);
  });

  it('asks for the top contributions when a magnitude column has none, and says when the declared one is missing', async () => {
    expect(await checks('region,n,cost [magnitude]\nNorth,20,1000\n')).toEqual([['dominance_unchecked', 'REVIEW', ['1:cost [magnitude]']]]);
    expect((await checks('region,n\nNorth,20\n', { magnitude_column: 'spend' }))[0]).toEqual(['magnitude_column', 'REVIEW', []]);
  });
});

describe('row-level data', () => {
  it('fails a table longer than allowed', async () => {
    const csv = `band,n\n${Array.from({ length: 101 }, (_, i) => `b${i},50`).join('\n')}\n`;
    expect((await checks(csv))[0]).toEqual(['too_many_rows', 'FAIL', []]);
  });

  it('fails an id-named column of released person ids, and only sends distinct id-like values elsewhere to review', async () => {
    const personIds = new Set(Array.from({ length: 200 }, (_, i) => String(i + 1)));
    const context = { ...NOTHING, personIds };
    expect(await checks('patient_id,score\n15,0.5\n19,0.7\n', {}, context)).toEqual([['person_ids', 'FAIL', ['1:patient_id', '2:patient_id']]]);
    const counts = `band,n\n${Array.from({ length: 12 }, (_, i) => `b${i},${20 + i}`).join('\n')}\n`;
    expect(await checks(counts, {}, context)).toEqual([['person_ids', 'REVIEW', Array.from({ length: 12 }, (_, i) => `${i + 1}:n`)]]);
    // Repeated values are counts, not a person's id per row.
    expect(await checks('band,n\na,20\nb,20\n', {}, context)).toEqual([]);
  });
});
