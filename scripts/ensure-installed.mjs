import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Runs `npm install` when node_modules is missing or older than package-lock.json, so that
 * `npm start` and `npm test` work on a fresh clone. (`npm ci` cannot be used: the lockfile
 * written on Linux lacks other platforms' optional builds.)
 */
export function ensureInstalled(root) {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  const stale = !fs.existsSync(marker) || (fs.existsSync(lock) && fs.statSync(lock).mtimeMs > fs.statSync(marker).mtimeMs);
  if (!stale) return;
  process.stdout.write('Installing npm packages...\n');
  execSync('npm install --no-audit --no-fund', { cwd: root, stdio: 'inherit' });
}
