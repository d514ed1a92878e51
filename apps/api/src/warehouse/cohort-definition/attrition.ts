import type { Attrition, AttritionCell, AttritionStep } from '@hdp/contract';
import { addKeys, KEY_RANGE } from '../perturbation';
import { SUPPRESSED_LABEL } from '../suppression';

/** The true counts of a definition's attrition, as measured; never released as they are. */
export interface MeasuredAttrition {
  steps: { step: AttritionStep['step']; rule?: number; label: string; persons: number; personKeySum: number; events: number; eventKeySum: number }[];
  ruleNames: string[];
  /** Persons by the inclusion-rule mask of their best event (bit i = rule i passed). */
  masks: Map<number, { persons: number; keySum: number }>;
}

const keyOf = (value: unknown) => Number(value ?? 0) % KEY_RANGE;

/** The measured attrition from its rows, as `readDefinitionAnswer` adds them up: step rows (step, events, persons, key sums) and mask rows (mask, persons, key sum). */
export function attritionFromRows(
  parts: { steps: { step: AttritionStep['step']; rule?: number; label: string; sameAs?: number }[]; ruleNames: string[] },
  stepRows: Record<string, unknown>[],
  maskRows: Record<string, unknown>[],
): MeasuredAttrition {
  const byStep = new Map(stepRows.map((r) => [Number(r.step), r]));
  return {
    steps: parts.steps.map((s, i) => {
      // A step with the same events as an earlier one was counted once, as that one.
      const row = byStep.get(s.sameAs ?? i);
      return {
        step: s.step,
        ...(s.rule !== undefined && { rule: s.rule }),
        label: s.label,
        persons: Number(row?.persons ?? 0),
        personKeySum: keyOf(row?.person_key_sum),
        events: Number(row?.events ?? 0),
        eventKeySum: keyOf(row?.event_key_sum),
      };
    }),
    ruleNames: parts.ruleNames,
    masks: new Map(maskRows.map((r) => [Number(r.mask), { persons: Number(r.persons), keySum: keyOf(r.person_key_sum) }])),
  };
}

/** Where the attrition's cells sit in the answer's table. */
interface AttritionLayout {
  steps: { persons: number; events: number }[];
  rules: { passing: number; gain: number }[];
}

/**
 * Adds the attrition to an answer's count table, so the one suppression (and its LP audit) sees it
 * whole: a cell per step for persons and for events, and, because a reader subtracts two shown
 * rows, the DROP between consecutive rows is a cell too (each line: a row = the next row + the
 * drop). The last row holds the persons counted by the answer (`root`, plus the drop the query's
 * own rules make). Per inclusion rule: the persons passing it (a line: the qualifying persons =
 * passing + failing) and its gain (a line: those passing every other rule = the cohort + gain); and
 * the persons by inclusion-rule mask, of which those counts and the rule rows are sums.
 * Drops and other derived cells are never shown; their released value is the true one, so a drop
 * of 1 to threshold − 1 is always treated as small.
 */
export function addAttritionCells(
  measured: MeasuredAttrition,
  table: { counts: number[]; keySums: number[]; exact: Set<number>; lines: { total: number; parts: readonly number[] }[]; root: number },
): AttritionLayout {
  const cell = (count: number, keySum: number, exact = false) => {
    table.counts.push(count);
    table.keySums.push(keySum);
    if (exact) table.exact.add(table.counts.length - 1);
    return table.counts.length - 1;
  };
  const steps = measured.steps.map((s) => ({ persons: cell(s.persons, s.personKeySum), events: cell(s.events, s.eventKeySum) }));
  for (let i = 0; i + 1 < steps.length; i++) {
    const [here, next] = [steps[i]!, steps[i + 1]!];
    table.lines.push({ total: here.persons, parts: [next.persons, cell(table.counts[here.persons]! - table.counts[next.persons]!, 0, true)] });
    table.lines.push({ total: here.events, parts: [next.events, cell(table.counts[here.events]! - table.counts[next.events]!, 0, true)] });
  }
  const last = steps[steps.length - 1];
  if (last) table.lines.push({ total: last.persons, parts: [table.root, cell(table.counts[last.persons]! - table.counts[table.root]!, 0, true)] });

  const rules: AttritionLayout['rules'] = [];
  const ruleCount = measured.ruleNames.length;
  if (ruleCount > 0) {
    const qualifiedStep = measured.steps.findIndex((s) => s.step === 'qualified_limit');
    const lastRuleStep = measured.steps.findIndex((s) => s.step === 'inclusion_rule' && s.rule === ruleCount - 1);
    const full = (1 << ruleCount) - 1;
    for (let r = 0; r < ruleCount; r++) {
      let passing = 0;
      let passingKeys = 0;
      for (const [mask, m] of measured.masks) {
        if ((mask & (1 << r)) !== 0) {
          passing += m.persons;
          passingKeys = addKeys(passingKeys, m.keySum);
        }
      }
      const gainMask = measured.masks.get(full & ~(1 << r)) ?? { persons: 0, keySum: 0 };
      const passingCell = cell(passing, passingKeys);
      const gainCell = cell(gainMask.persons, gainMask.keySum);
      const qualified = steps[qualifiedStep]!.persons;
      table.lines.push({ total: qualified, parts: [passingCell, cell(table.counts[qualified]! - passing, 0, true)] });
      const cohort = steps[lastRuleStep]!.persons;
      table.lines.push({ total: cell(table.counts[cohort]! + gainMask.persons, 0, true), parts: [cohort, gainCell] });
      rules.push({ passing: passingCell, gain: gainCell });
    }
    // Persons by mask are cells too: the qualifying row, each rule's row, the rules' passing counts
    // and gains are sums of them, so a reader who subtracts two of those (persons passing rule 2 less
    // those passing every rule) reads a mask. Each relation goes in when it holds on the true counts
    // (always for passing and gain; for the rows when every person keeps one qualifying event), since
    // a reader may assume it; one that does not hold tells a reader nothing exact.
    const maskCells = Array.from({ length: full + 1 }, (_m, mask) => cell(measured.masks.get(mask)?.persons ?? 0, 0, true));
    const whereHolds = (total: number, parts: number[]) => {
      if (table.counts[total] === parts.reduce((sum, p) => sum + table.counts[p]!, 0)) table.lines.push({ total, parts });
    };
    const masksWith = (bits: number) => maskCells.filter((_c, mask) => (mask & bits) === bits);
    whereHolds(steps[qualifiedStep]!.persons, maskCells);
    rules.forEach((rule, r) => {
      whereHolds(rule.passing, masksWith(1 << r));
      whereHolds(rule.gain, [maskCells[full & ~(1 << r)]!]);
      const ruleStep = measured.steps.findIndex((s) => s.step === 'inclusion_rule' && s.rule === r);
      if (ruleStep >= 0) whereHolds(steps[ruleStep]!.persons, masksWith((1 << (r + 1)) - 1));
    });
  }
  return { steps, rules };
}

/** The attrition as released: each cell's released count, or hidden. */
export function presentAttrition(measured: MeasuredAttrition, layout: AttritionLayout, hidden: readonly boolean[], released: readonly number[]): Attrition {
  const present = (index: number): AttritionCell =>
    hidden[index] ? { count: null, display: SUPPRESSED_LABEL, suppressed: true } : { count: released[index]!, display: String(released[index]), suppressed: false };
  return {
    steps: measured.steps.map((s, i) => ({
      step: s.step,
      ...(s.rule !== undefined && { rule: s.rule }),
      label: s.label,
      persons: present(layout.steps[i]!.persons),
      events: present(layout.steps[i]!.events),
    })),
    inclusion_rules: measured.ruleNames.map((name, r) => ({ rule: r, name, persons_passing: present(layout.rules[r]!.passing), gain: present(layout.rules[r]!.gain) })),
  };
}
