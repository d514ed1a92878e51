// First-load JavaScript per route of the web app's production build, gzipped.
// Usage: npm run bench:web [-- --json] (builds first if there is no build). Exits 1 over budget.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** No route may load more than this much gzipped JavaScript before it is interactive. */
const BUDGET_BYTES = 300 * 1024;

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

const rows = routes.map((route) => {
  const files = new Set([...shared, ...js(manifest.pages[route] ?? [])]);
  const bytes = [...files].reduce((sum, file) => sum + gzipSize(file), 0);
  return { route, kB: Math.round((bytes / 1024) * 10) / 10, withinBudget: bytes <= BUDGET_BYTES };
});
const sharedKb = Math.round(([...shared].reduce((sum, file) => sum + gzipSize(file), 0) / 1024) * 10) / 10;
const polyfillKb = Math.round((js(manifest.polyfillFiles).reduce((sum, file) => sum + gzipSize(file), 0) / 1024) * 10) / 10;

if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify({ budgetKb: BUDGET_BYTES / 1024, sharedKb, polyfillKb, routes: rows }, null, 2)}\n`);
} else {
  process.stdout.write(`First-load JS per route (gzip), budget ${BUDGET_BYTES / 1024} kB\n\n`);
  process.stdout.write(`${'route'.padEnd(32)}${'kB'.padStart(8)}\n`);
  for (const row of rows) process.stdout.write(`${row.route.padEnd(32)}${row.kB.toFixed(1).padStart(8)}${row.withinBudget ? '' : '  OVER BUDGET'}\n`);
  process.stdout.write(`\nshared by all routes: ${sharedKb.toFixed(1)} kB; legacy polyfills (nomodule, not loaded by current browsers): ${polyfillKb.toFixed(1)} kB\n`);
}
process.exit(rows.every((row) => row.withinBudget) ? 0 : 1);
