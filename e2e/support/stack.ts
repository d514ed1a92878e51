import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const WEB_DIR = path.join(ROOT, 'apps', 'web');
const API_DIR = path.join(ROOT, 'apps', 'api');

/** The accounts the browser tests sign in with. */
export const ACCOUNTS = {
  admin: { email: 'admin@example.org', password: 'e2e-admin-password-1', name: 'Ada Admin' },
  researcher: { email: 'researcher@example.org', password: 'e2e-researcher-password-1', name: 'Rosalind Researcher' },
  auditor: { email: 'auditor@example.org', password: 'e2e-auditor-password-1', name: 'Alan Auditor' },
  steward: { email: 'steward@example.org', password: 'e2e-steward-password-1', name: 'Stella Steward' },
  /** A second output checker: a release needs two independent reviews. */
  checker: { email: 'checker@example.org', password: 'e2e-checker-password-1', name: 'Chris Checker' },
} as const;

/**
 * The browser tests sign in with a password alone, as a scripted test platform does
 * (`MFA_REQUIRED=false`); the tests of second factors enrol one, after which that person is always
 * asked for it. E2E_MFA_REQUIRED=true runs the stack as production does.
 */
const E2E_MFA_REQUIRED = process.env.E2E_MFA_REQUIRED ?? 'false';

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function newestMtime(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  let newest = fs.statSync(dir).mtimeMs;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', '.next', 'test-results'].includes(entry.name)) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds the web app for production unless the build is newer than its sources and the contract's. */
export function buildWebIfNeeded(log: (line: string) => void): void {
  const buildId = path.join(WEB_DIR, '.next', 'BUILD_ID');
  const newest = Math.max(newestMtime(WEB_DIR), newestMtime(path.join(ROOT, 'packages', 'contract', 'src')));
  if (fs.existsSync(buildId) && fs.statSync(buildId).mtimeMs >= newest) {
    log('web build is up to date');
    return;
  }
  log('building the web app for production');
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
    cwd: WEB_DIR,
    stdio: 'inherit',
    timeout: 240_000,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
}

function runHdp(dataDir: string, args: string[]): void {
  execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/hdp.ts', ...args], {
    cwd: API_DIR,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 60_000,
  });
}

/** Creates the administrator, a researcher, an auditor and a data steward in a fresh data directory (before the API owns it). */
export function seedAccounts(dataDir: string): void {
  const { admin, researcher, auditor, steward } = ACCOUNTS;
  runHdp(dataDir, ['admin', 'create', '--email', admin.email, '--name', admin.name, '--password', admin.password]);
  runHdp(dataDir, ['user', 'create', '--email', researcher.email, '--name', researcher.name, '--roles', 'RESEARCHER', '--password', researcher.password]);
  runHdp(dataDir, ['user', 'create', '--email', auditor.email, '--name', auditor.name, '--roles', 'AUDITOR', '--password', auditor.password]);
  runHdp(dataDir, ['user', 'create', '--email', steward.email, '--name', steward.name, '--roles', 'DATA_STEWARD', '--password', steward.password]);
  const { checker } = ACCOUNTS;
  runHdp(dataDir, ['user', 'create', '--email', checker.email, '--name', checker.name, '--roles', 'DATA_STEWARD', '--password', checker.password]);
}

async function waitFor(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** Stops a process group: SIGTERM, then SIGKILL after a grace period. */
async function stop(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, graceMs);
  await exited;
  clearTimeout(timer);
}

export interface RunningStack {
  webUrl: string;
  apiUrl: string;
  dataDir: string;
  stop(): Promise<void>;
  /** Stops the API process (the web app keeps running), to test what users see when it is down. */
  stopApi(): Promise<void>;
  /** Starts the API again on the same port and data directory; resolves once it answers. */
  startApi(): Promise<void>;
}

/** Settings added to the two servers' environments (single sign-on, say); none by default. */
export interface StackOptions {
  apiEnv?: Record<string, string>;
  webEnv?: Record<string, string>;
}

/** Starts a real API on a fresh data directory and `next start` in front of it, on free ports. */
export async function startStack(log: (line: string) => void, { apiEnv = {}, webEnv = {} }: StackOptions = {}): Promise<RunningStack> {
  buildWebIfNeeded(log);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-e2e-'));
  seedAccounts(dataDir);
  const [apiPort, webPort] = [await freePort(), await freePort()];
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  // localhost, not 127.0.0.1: browsers take passkeys only on a domain (an IP address is no relying party id).
  const webUrl = `http://localhost:${webPort}`;
  const output = fs.openSync(path.join(dataDir, 'servers.log'), 'a');
  const children: ChildProcess[] = [];
  const stopAll = async () => {
    await Promise.all(children.map((child) => stop(child)));
    fs.closeSync(output);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  // Never leave servers behind, even when the run is interrupted.
  const killNow = () => children.forEach((child) => child.pid && child.exitCode === null && process.kill(-child.pid, 'SIGKILL'));
  process.once('exit', killNow);

  // Shared by the two servers: the web app signs each browser's address with it for the API.
  const clientAddressSecret = randomBytes(32).toString('base64url');
  let api: ChildProcess | null = null;
  const startApi = async () => {
    // Running still (a process ended by a signal has no exit code, only its signal).
    if (api && api.exitCode === null && api.signalCode === null) return;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: API_DIR,
      // WEB_URL: invitation e-mails link to this web app. No SMTP_URL: mail goes to DATA_DIR/outbox.
      env: { ...process.env, DATA_DIR: dataDir, API_HOST: '127.0.0.1', API_PORT: String(apiPort), LOG_LEVEL: 'warn', WEB_URL: webUrl, SMTP_URL: '', CLIENT_ADDRESS_SECRET: clientAddressSecret, PASSWORD_HASH_COST: '10', MFA_REQUIRED: E2E_MFA_REQUIRED, ...apiEnv },
      stdio: ['ignore', output, output],
      detached: true,
    });
    api = child;
    children.push(child);
    await waitFor(`${apiUrl}/api/v1/users/me/`, child, 60_000);
  };
  const stopApi = async () => {
    if (api) await stop(api);
  };
  try {
    await startApi();
    log(`API on ${apiUrl}`);

    const web = spawn(process.execPath, [path.join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next'), 'start', '--port', String(webPort), '--hostname', '127.0.0.1'], {
      cwd: WEB_DIR,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
        NEXTAUTH_URL: webUrl,
        NEXTAUTH_SECRET: randomBytes(32).toString('base64url'),
        API_INTERNAL_URL: apiUrl,
        CLIENT_ADDRESS_SECRET: clientAddressSecret,
        HELP_CENTRE_URL: 'https://help.example.org/',
        // The sign-in page says when the platform runs without a second factor.
        MFA_REQUIRED: E2E_MFA_REQUIRED,
        ...webEnv,
      },
      stdio: ['ignore', output, output],
      detached: true,
    });
    children.push(web);
    await waitFor(`${webUrl}/api/auth/providers`, web, 60_000);
    log(`web on ${webUrl}`);
  } catch (error) {
    process.stderr.write(fs.readFileSync(path.join(dataDir, 'servers.log'), 'utf8'));
    await stopAll();
    throw error;
  }
  return { webUrl, apiUrl, dataDir, stop: stopAll, stopApi, startApi };
}

/**
 * Lets the tests (in worker processes) stop and start the API that the global setup owns:
 * POST /api/stop and /api/start on a local port. Resolves to its address and a function that closes it.
 */
export function serveStackControl(stack: RunningStack): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const action = req.method === 'POST' ? { '/api/stop': stack.stopApi, '/api/start': stack.startApi }[req.url ?? ''] : undefined;
    if (!action) {
      res.writeHead(404).end();
      return;
    }
    action().then(
      () => res.writeHead(204).end(),
      (error: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)),
    );
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

async function controlStack(action: 'stop' | 'start'): Promise<void> {
  const base = process.env.E2E_STACK_CONTROL_URL;
  if (!base) throw new Error('E2E_STACK_CONTROL_URL is not set: the global setup starts the stack control');
  const response = await fetch(`${base}/api/${action}`, { method: 'POST', signal: AbortSignal.timeout(90_000) });
  if (!response.ok) throw new Error(`${action} the API: ${response.status} ${await response.text()}`);
}

/** From a test: stops the real API process (the web app keeps running). */
export const stopApi = () => controlStack('stop');
/** From a test: starts the API again; resolves once it answers. */
export const startApi = () => controlStack('start');
