// The web app's performance budgets, read from performance-budgets.json beside this file: the one
// place that the first-load bench, the Lighthouse bench and the browser budget test all read.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BUDGETS_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'performance-budgets.json');

/** A size limit in kB (1024 bytes) of gzipped JavaScript. */
export interface SizeBudget {
  /** The limit enforced now: the goal once met, until then the measured size rounded up to 10 kB, so a regression fails. */
  budgetKb: number;
  /** Where the page is being brought to. */
  goalKb: number;
}

export interface PerformanceBudgets {
  firstLoadJs: {
    /** The JavaScript every page loads (the app shell and the runtime). */
    shared: SizeBudget;
    /** Per page, keyed by its Next.js page (as in e2e/support/routes.ts). */
    routes: Record<string, SizeBudget>;
  };
  /** Lighthouse goals per page, for its default mobile simulation. */
  lighthouse: { minPerformance: number; maxLcpMs: number; maxTbtMs: number; maxCls: number; minAccessibility: number };
}

export function readBudgets(): PerformanceBudgets {
  return JSON.parse(fs.readFileSync(BUDGETS_FILE, 'utf8')) as PerformanceBudgets;
}

/** The budget of one page; an unlisted page has none, which is itself a mistake to report. */
export function routeBudget(budgets: PerformanceBudgets, page: string): SizeBudget {
  const budget = budgets.firstLoadJs.routes[page];
  if (!budget) throw new Error(`${path.relative(process.cwd(), BUDGETS_FILE)} has no first-load budget for ${page}: add one`);
  return budget;
}
