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
// The one public address of the web app: the API writes it into e-mails (WEB_URL), the web app signs
// people in on it (NEXTAUTH_URL). Set either; without both it is this machine on the web app's port.
if (process.env.WEB_URL && process.env.NEXTAUTH_URL && process.env.WEB_URL.replace(/\/$/, '') !== process.env.NEXTAUTH_URL.replace(/\/$/, '')) {
  process.stderr.write(
    `WEB_URL (${process.env.WEB_URL}) and NEXTAUTH_URL (${process.env.NEXTAUTH_URL}) name two different addresses for the web app: set one of them (WEB_URL), or both to the same address.\n`,
  );
  process.exit(1);
}
const webUrl = (process.env.WEB_URL ?? process.env.NEXTAUTH_URL ?? `http://localhost:${webPort}`).replace(/\/$/, '');
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
  WEB_URL: webUrl,
  // Both servers: the web app signs each browser's address with it, the API checks the signature.
  CLIENT_ADDRESS_SECRET: process.env.CLIENT_ADDRESS_SECRET ?? persistentSecret('client-address-secret'),
  // Both servers: every local account signs in with a second factor (enrolled at the first sign-in).
  // MFA_REQUIRED=false switches it off for a scripted demonstration or a test platform; the sign-in
  // page then says so.
  MFA_REQUIRED: process.env.MFA_REQUIRED ?? 'true',
};
// Each server runs in a process group of its own (`detached`), which shutdown ends whole: the web
// server is a child of `next start`, and ending only the process we started would leave it running.
const api = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
  cwd: path.join(root, 'apps', 'api'),
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
  detached: true,
});
children.push(api);

let apiReady = false;
let apiOutput = '';
api.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  if (!apiReady) apiOutput += chunk.toString();
  if (!apiReady && apiOutput.includes('API listening')) {
    apiReady = true;
    // The API prints its administrator lines with the "listening" line, in the same write.
    setTimeout(startWeb, 50);
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
  const web = spawn(process.execPath, [path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'start', '--port', webPort], {
    cwd: webDir,
    env: {
      ...env,
      NODE_ENV: 'production',
      PORT: webPort,
      API_INTERNAL_URL: apiUrl,
      NEXTAUTH_URL: webUrl,
      NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? persistentSecret('web-session-secret'),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
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
  if (hasWeb) lines.push(`  Web app:  ${webUrl}`);
  lines.push(`  API:      ${apiUrl}/api/v1/  (OpenAPI at ${apiUrl}/api/v1/docs/)`);
  lines.push(`  Data:     ${dataDir}`);
  const adminEmail = process.env.ADMIN_EMAIL ?? 'admin@example.org';
  lines.push(
    env.MFA_REQUIRED === 'false'
      ? '  Second factor: not required (MFA_REQUIRED=false); see docs/security.md.'
      : '  Second factor: required; each person sets up a passkey or an authenticator app at their first sign-in.',
  );
  if (/First administrator created: \S+ \/ /.test(apiOutput)) {
    lines.push(`Sign in as ${adminEmail} with the password printed above (shown once).`);
  } else if (apiOutput.includes('First administrator created')) {
    lines.push(`Sign in as ${adminEmail} with ADMIN_PASSWORD.`);
  } else if (apiOutput.includes('No administrator was created')) {
    lines.push('No administrator was created this time: see the line above for why and how to make one.');
  } else {
    lines.push(`Sign in as ${adminEmail} (an existing account) or another administrator.`);
  }
  lines.push('Stop with Ctrl+C.', '');
  process.stdout.write(lines.join('\n'));
}

/** Sends a signal to a child's whole process group; false when it is gone already. */
function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
    return true;
  } catch {
    return false;
  }
}

let stopping = false;
/** Stops the whole platform: every server's process group, then SIGKILL for what is left after 10 s. */
function shutdown(code) {
  if (stopping) return;
  stopping = true;
  const running = children.filter((child) => child.pid !== undefined && signalGroup(child, 'SIGTERM'));
  const done = () => process.exit(code);
  if (running.length === 0) return done();
  const force = setTimeout(() => {
    for (const child of running) signalGroup(child, 'SIGKILL');
    done();
  }, 10_000);
  // Wait until every group is empty (its leader's exit is not enough: `next start` has a child).
  const poll = setInterval(() => {
    if (running.every((child) => !signalGroup(child, 0))) {
      clearInterval(poll);
      clearTimeout(force);
      done();
    }
  }, 100);
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));
process.on('SIGHUP', () => shutdown(0));
