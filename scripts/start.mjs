// `npm start`: installs what is missing, builds, migrates, seeds and runs the platform on its
// embedded defaults (PGlite and files under DATA_DIR), then prints the URLs and how to sign in.
import { execSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureInstalled } from './ensure-installed.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
ensureInstalled(root);

const dataDir = path.resolve(root, process.env.DATA_DIR ?? 'data');
fs.mkdirSync(dataDir, { recursive: true });
const apiPort = process.env.API_PORT ?? '8000';
const webPort = process.env.PORT ?? '3000';
const apiUrl = process.env.PUBLIC_URL ?? `http://127.0.0.1:${apiPort}`;
const webDir = path.join(root, 'apps', 'web');
const hasWeb = fs.existsSync(path.join(webDir, 'package.json'));

/** The newest modification time under a directory (sources only). */
function newestMtime(dir) {
  let newest = 0;
  if (!fs.existsSync(dir)) return newest;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', '.next', 'dist'].includes(entry.name)) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** A secret kept in DATA_DIR so that sessions survive restarts; generated on first start. */
function persistentSecret(name) {
  const file = path.join(dataDir, name);
  if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
  return fs.readFileSync(file, 'utf8').trim();
}

if (hasWeb) {
  const buildId = path.join(webDir, '.next', 'BUILD_ID');
  const sourcesChanged =
    !fs.existsSync(buildId) ||
    Math.max(newestMtime(webDir), newestMtime(path.join(root, 'packages', 'contract'))) > fs.statSync(buildId).mtimeMs;
  if (sourcesChanged) {
    process.stdout.write('Building the web app...\n');
    execSync('npm run build --workspace apps/web', { cwd: root, stdio: 'inherit' });
  }
}

const children = [];
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  API_PORT: apiPort,
  // Both servers: the web app signs each browser's address with it, the API checks the signature.
  CLIENT_ADDRESS_SECRET: process.env.CLIENT_ADDRESS_SECRET ?? persistentSecret('client-address-secret'),
  // The API requires a second factor by default, but the web app's sign-in page does not take one
  // yet: until it does, `npm start` runs without it so that the web app can be signed in to.
  // MFA_REQUIRED=true turns it on (sign-in then works through the API's two-step token endpoint).
  MFA_REQUIRED: process.env.MFA_REQUIRED ?? 'false',
};
const api = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
  cwd: path.join(root, 'apps', 'api'),
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
});
children.push(api);

let apiReady = false;
api.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  if (!apiReady && chunk.toString().includes('API listening')) {
    apiReady = true;
    startWeb();
  }
});
api.on('exit', (code) => {
  if (!apiReady) process.stderr.write('The API did not start (see above).\n');
  shutdown(code ?? 1);
});

function startWeb() {
  if (!hasWeb) {
    printBanner();
    return;
  }
  const web = spawn('npm', ['run', 'start', '--workspace', 'apps/web'], {
    cwd: root,
    env: {
      ...env,
      PORT: webPort,
      API_INTERNAL_URL: apiUrl,
      NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? `http://localhost:${webPort}`,
      NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? persistentSecret('web-session-secret'),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(web);
  let banner = false;
  web.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    if (!banner && /ready|started server|Local:/i.test(chunk.toString())) {
      banner = true;
      printBanner();
    }
  });
  web.on('exit', (code) => shutdown(code ?? 1));
}

function printBanner() {
  const lines = ['', 'The platform is running.'];
  if (hasWeb) lines.push(`  Web app:  http://localhost:${webPort}`);
  lines.push(`  API:      ${apiUrl}/api/v1/  (OpenAPI at ${apiUrl}/api/v1/docs/)`);
  lines.push(`  Data:     ${dataDir}`);
  if (env.MFA_REQUIRED === 'false') lines.push('  Second factor: not required (MFA_REQUIRED=false); see docs/security.md.');
  lines.push(
    `Sign in as ${process.env.ADMIN_EMAIL ?? 'admin@example.org'} with the password printed above on first start`,
    '(or ADMIN_PASSWORD if you set it). Stop with Ctrl+C.',
    '',
  );
  process.stdout.write(lines.join('\n'));
}

let stopping = false;
function shutdown(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500).unref();
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));
