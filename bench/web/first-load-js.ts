// First-load JavaScript per route of the web app's production build, gzipped, against the budgets
// in performance-budgets.json. Usage: npm run bench:web [-- --json] (builds first if there is no
// build). Marks what misses its goal; exits 1 only when the shared part or a page passes its budget.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { BUDGETS_FILE, readBudgets } from './budgets';

const budgets = readBudgets().firstLoadJs;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const nextDir = path.join(root, 'apps', 'web', '.next');

interface BuildManifest {
  pages: Record<string, string[]>;
  rootMainFiles: string[];
  polyfillFiles: string[];
  lowPriorityFiles: string[];
}

if (!fs.existsSync(path.join(nextDir, 'build-manifest.json'))) {
  process.stdout.write('No production build found; building the web app...\n');
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
    cwd: path.join(root, 'apps', 'web'),
    stdio: 'inherit',
  });
}

const manifest = JSON.parse(fs.readFileSync(path.join(nextDir, 'build-manifest.json'), 'utf8')) as BuildManifest;
const gzipped = new Map<string, number>();
const gzipSize = (file: string): number => {
  if (!gzipped.has(file)) gzipped.set(file, gzipSync(fs.readFileSync(path.join(nextDir, file)), { level: 9 }).length);
  return gzipped.get(file)!;
};
const js = (files: readonly string[]) => files.filter((file) => file.endsWith('.js'));

// A pages-router page loads the app shell (_app, which carries the runtime), its own chunks and
// the build manifests (rootMainFiles belong to the app router and are not loaded); the polyfills are
// `nomodule` and skipped by current browsers, so they are reported apart.
const shared = new Set([...js(manifest.pages['/_app'] ?? []), ...js(manifest.lowPriorityFiles)]);
const routes = Object.keys(manifest.pages).filter((route) => !['/_app', '/_error', '/_document'].includes(route)).sort();

const kB = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
const sharedKb = kB([...shared].reduce((sum, file) => sum + gzipSize(file), 0));
const polyfillKb = kB(js(manifest.polyfillFiles).reduce((sum, file) => sum + gzipSize(file), 0));
const sharedRow = { kB: sharedKb, ...budgets.shared, withinBudget: sharedKb <= budgets.shared.budgetKb, meetsGoal: sharedKb <= budgets.shared.goalKb };

const rows = routes.map((route) => {
  const files = new Set([...shared, ...js(manifest.pages[route] ?? [])]);
  const size = kB([...files].reduce((sum, file) => sum + gzipSize(file), 0));
  const budget = budgets.routes[route];
  return {
    route,
    kB: size,
    budgetKb: budget?.budgetKb ?? null,
    goalKb: budget?.goalKb ?? null,
    // A page without a budget is a mistake in the budgets file: it fails like one over budget.
    withinBudget: budget !== undefined && size <= budget.budgetKb,
    meetsGoal: budget !== undefined && size <= budget.goalKb,
  };
});
const ok = sharedRow.withinBudget && rows.every((row) => row.withinBudget);

if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify({ budgetsFile: path.relative(root, BUDGETS_FILE), shared: sharedRow, polyfillKb, routes: rows }, null, 2)}\n`);
} else {
  const status = (row: { withinBudget: boolean; meetsGoal: boolean; budgetKb: number | null }) =>
    row.budgetKb === null ? '  NO BUDGET' : !row.withinBudget ? '  OVER BUDGET' : row.meetsGoal ? '' : '  over goal';
  const line = (name: string, row: typeof sharedRow | (typeof rows)[number]) =>
    `${name.padEnd(34)}${row.kB.toFixed(1).padStart(8)}${String(row.budgetKb ?? '-').padStart(8)}${String(row.goalKb ?? '-').padStart(6)}${status(row)}\n`;
  process.stdout.write(`First-load JS per route (gzip, from the build manifest); budgets from ${path.relative(root, BUDGETS_FILE)}\n\n`);
  process.stdout.write(`${'route'.padEnd(34)}${'kB'.padStart(8)}${'budget'.padStart(8)}${'goal'.padStart(6)}\n`);
  process.stdout.write(line('shared by all routes', sharedRow));
  for (const row of rows) process.stdout.write(line(row.route, row));
  process.stdout.write(`\nlegacy polyfills (nomodule, not loaded by current browsers, in no figure above): ${polyfillKb.toFixed(1)} kB\n`);
}
process.exit(ok ? 0 : 1);
