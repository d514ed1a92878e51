/**
 * Sign-in through the web app with a password and an authenticator app's code, as a browser does
 * it over HTTP: next-auth's credentials flow (CSRF token, the password step, which answers with
 * the second step's challenge in an HttpOnly cookie, then the code), against the production build
 * (`next start`) and a real API requiring a second factor, on the embedded database. Reports p50
 * and p95 of each part; the goal is p95 ≤ 1.5 s for the whole. Each person's authenticator app is
 * enrolled through the API first (not timed); each person then signs in once, with the next time
 * step's code (a code works once only).
 * Usage: npm run bench:sign-in-web [-- --people 30]   (needs the web build: npm run build -w apps/web)
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'otplib';
import { loadConfig } from '../../apps/api/src/config';
import { openServices } from '../../apps/api/src/services';
import { createUser } from '../../apps/api/src/users/admin-creator';
import { percentile, repoRoot, startApi, stop } from '../support/servers';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const people = arg('people', 30);
const password = 'a researcher password of some length';
const emailOf = (i: number) => `web-signin-${i}@example.org`;
const totp = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A browser's cookies, enough for one origin. */
class CookieJar {
  private cookies = new Map<string, string>();
  take(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const at = pair!.indexOf('=');
      const [name, value] = [pair!.slice(0, at), pair!.slice(at + 1)];
      if (/max-age=0/i.test(header) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

async function post(apiUrl: string, route: string, body: unknown) {
  const response = await fetch(`${apiUrl}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await response.json()) as Record<string, unknown>;
}

/** Enrols an authenticator app for a person through the API's sign-in (the first code confirms it); its secret. */
async function enrolApp(apiUrl: string, email: string): Promise<string> {
  const { challenge } = (await post(apiUrl, '/api/v1/auth/token/', { email, password })) as { challenge: string };
  const { totp: enrolment } = (await post(apiUrl, '/api/v1/auth/mfa/enrol/', { challenge, kind: 'TOTP' })) as { totp: { secret: string } };
  const tokens = await post(apiUrl, '/api/v1/auth/token/mfa/', { challenge, totp_code: await totp(enrolment.secret) });
  if (!tokens.id_token) throw new Error(`enrolment of ${email} failed: ${JSON.stringify(tokens)}`);
  return enrolment.secret;
}

/** One browser's sign-in: the password step, then the code; the time of each. */
async function signInThroughWeb(webUrl: string, email: string, secret: string): Promise<{ passwordMs: number; codeMs: number }> {
  const jar = new CookieJar();
  const csrfResponse = await fetch(`${webUrl}/api/auth/csrf`);
  jar.take(csrfResponse);
  const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string };
  const form = (fields: Record<string, string>) => new URLSearchParams({ ...fields, csrfToken, callbackUrl: `${webUrl}/`, json: 'true' });
  const callback = `${webUrl}/api/auth/callback/credentials`;

  let started = performance.now();
  const passwordStep = await fetch(callback, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() }, body: form({ email, password }), redirect: 'manual' });
  const passwordMs = performance.now() - started;
  jar.take(passwordStep);
  const { url: afterPassword } = (await passwordStep.json()) as { url: string };
  if (!afterPassword.includes('error=SecondFactorRequired')) throw new Error(`password step of ${email}: ${afterPassword}`);

  const code = await totp(secret, 1);
  started = performance.now();
  const codeStep = await fetch(callback, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() }, body: form({ answer: JSON.stringify({ totp_code: code }) }), redirect: 'manual' });
  const codeMs = performance.now() - started;
  jar.take(codeStep);
  const { url: afterCode } = (await codeStep.json()) as { url: string };
  if (afterCode.includes('error=')) throw new Error(`second step of ${email}: ${afterCode}`);
  const session = (await (await fetch(`${webUrl}/api/auth/session`, { headers: { cookie: jar.header() } })).json()) as { idToken?: string };
  if (!session.idToken) throw new Error(`no session for ${email}`);
  return { passwordMs, codeMs };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-bench-web-signin-'));
const webPort = await freePort();
const webUrl = `http://localhost:${webPort}`;
const clientAddressSecret = randomBytes(32).toString('base64url');
const apiEnv = { DATA_DIR: dataDir, MFA_REQUIRED: 'true', WEB_URL: webUrl, CLIENT_ADDRESS_SECRET: clientAddressSecret };

{
  const config = loadConfig({ LOG_LEVEL: 'silent', ...apiEnv });
  const opened = await openServices(config, { startWorker: false, warehouse: false });
  try {
    for (let i = 0; i < people; i++) await createUser(opened.services.db, { email: emailOf(i), roles: ['RESEARCHER'], password }, 'bench');
  } finally {
    await opened.close();
  }
}

const api = await startApi(apiEnv);
// A process group of its own: `next start` serves from a child process, which stopping must end too.
const web = spawn(process.execPath, [path.join(repoRoot, 'node_modules/next/dist/bin/next'), 'start', '--port', String(webPort), '--hostname', '127.0.0.1'], {
  cwd: path.join(repoRoot, 'apps/web'),
  env: {
    ...process.env,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    NEXTAUTH_URL: webUrl,
    NEXTAUTH_SECRET: randomBytes(32).toString('base64url'),
    API_INTERNAL_URL: api.url,
    CLIENT_ADDRESS_SECRET: clientAddressSecret,
    MFA_REQUIRED: 'true',
  },
  stdio: 'ignore',
  detached: true,
});
const stopWeb = () => {
  try {
    process.kill(-web.pid!, 'SIGTERM');
  } catch {
    // gone already
  }
};
for (let tries = 0; ; tries++) {
  const up = await fetch(`${webUrl}/api/auth/providers`).then(
    (response) => response.ok,
    () => false,
  );
  if (up) break;
  if (tries > 240) {
    stopWeb();
    throw new Error('the web app did not start (is it built? npm run build -w apps/web)');
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
}
try {
  const secrets: string[] = [];
  for (let i = 0; i < people; i++) secrets.push(await enrolApp(api.url, emailOf(i)));
  // Warm the web server's routes once (the first request of each compiles nothing, but loads modules).
  await fetch(`${webUrl}/api/auth/csrf`);
  const load = os.loadavg();
  const password: number[] = [];
  const code: number[] = [];
  const total: number[] = [];
  for (let i = 0; i < people; i++) {
    const { passwordMs, codeMs } = await signInThroughWeb(webUrl, emailOf(i), secrets[i]!);
    password.push(passwordMs);
    code.push(codeMs);
    total.push(passwordMs + codeMs);
  }
  const line = (name: string, values: number[]) => `  ${name.padEnd(28)} p50 ${percentile(values, 50).toFixed(0).padStart(5)} ms   p95 ${percentile(values, 95).toFixed(0).padStart(5)} ms\n`;
  process.stdout.write(
    `Web sign-in with password + authenticator code, ${people} people one after another (PGlite, PASSWORD_HASH_COST ${process.env.PASSWORD_HASH_COST ?? 'default'})\n` +
      line('password step', password) +
      line('code step', code) +
      line('both (goal p95 <= 1500 ms)', total) +
      `  load average before: ${load.map((l) => l.toFixed(2)).join(' ')} (${os.cpus().length} cores); after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`,
  );
} finally {
  stopWeb();
  await stop(api.child);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
