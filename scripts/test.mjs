// `npm test`: installs what is missing, then runs typecheck, lint and every workspace's suite.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureInstalled } from './ensure-installed.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
ensureInstalled(root);

const workspaces = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).workspaces;
const suites = [
  ['typecheck', ['run', 'typecheck']],
  ['lint', ['run', 'lint']],
];
// Workspaces in a fixed order: the contract first, browser tests last.
const order = ['packages/contract', 'apps/api', 'apps/web', 'e2e'];
for (const dir of order) {
  const manifest = path.join(root, dir, 'package.json');
  if (!fs.existsSync(manifest)) continue;
  if (!workspaces.some((w) => w === dir || (w.endsWith('/*') && dir.startsWith(w.slice(0, -1))))) continue;
  if (JSON.parse(fs.readFileSync(manifest, 'utf8')).scripts?.test) suites.push([dir, ['test', '--workspace', dir]]);
}

const env = { ...process.env, FORCE_COLOR: '0' };
const runInherited = (name, args) => {
  process.stdout.write(`\n=== ${name} ===\n`);
  const started = Date.now();
  const { status } = spawnSync('npm', args, { cwd: root, stdio: 'inherit', env });
  return { name, ok: status === 0, seconds: Math.round((Date.now() - started) / 1000) };
};
/** Runs a suite with its output kept, to be printed whole once it ends. */
const runBuffered = (name, args) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (status) => resolve({ name, ok: status === 0, seconds: Math.round((Date.now() - started) / 1000), output: Buffer.concat(output) }));
  });

// The typecheck, lint and the contract's suite are each one single-threaded process: on two cores they
// run side by side (their output printed in order once each ends). The larger suites start their own
// workers, so they run one after another.
const concurrent = new Set(['typecheck', 'lint', 'packages/contract']);
const results = [];
const together = suites.filter(([name]) => concurrent.has(name));
for (const result of await Promise.all(together.map(([name, args]) => runBuffered(name, args)))) {
  process.stdout.write(`\n=== ${result.name} ===\n`);
  process.stdout.write(result.output);
  results.push({ name: result.name, ok: result.ok, seconds: result.seconds });
}
for (const [name, args] of suites.filter(([name]) => !concurrent.has(name))) results.push(runInherited(name, args));
process.stdout.write('\n=== summary ===\n');
for (const r of results) process.stdout.write(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.seconds} s)\n`);
const failed = results.filter((r) => !r.ok).length;
process.stdout.write(`suites: ${results.length - failed} passed, ${failed} failed\n`);
process.exit(failed ? 1 : 0);
