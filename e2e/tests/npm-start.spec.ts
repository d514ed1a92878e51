import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { invitationLinkIn } from '../support/outbox';
import { expectShell, signIn } from '../support/pages';
import { totpCode } from '../support/second-factor';
import { freePort, ROOT } from '../support/stack';

/**
 * `npm start` as an operator runs it, on ports of its own: the web app's own settings (PORT,
 * NEXTAUTH_URL) are the one public address, which invitation e-mails link to; accounts made on the
 * command line before the first start do not keep the administrator from being created; a second
 * factor is required by default (the administrator sets one up at the first sign-in); and stopping
 * it stops the whole platform, the web server included.
 */

const admin = { email: 'operator-admin@example.org', password: 'operator-admin-password-1', name: 'Olive Operator' };

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

test('npm start on other ports: e-mails link to the web app, the administrator is created after CLI accounts, and stopping stops everything', async ({ page }) => {
  test.setTimeout(240_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-npm-start-'));
  const [apiPort, webPort] = [await freePort(), await freePort()];
  const webUrl = `http://localhost:${webPort}`;
  // An account made on the command line before the first start (no administrator among them).
  execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/hdp.ts', 'user', 'create', '--email', 'early@example.org', '--name', 'Early Researcher', '--roles', 'RESEARCHER', '--password', 'early-researcher-password-1'], {
    cwd: path.join(ROOT, 'apps', 'api'),
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 60_000,
  });

  // The suite's web build is current (the global setup made it): marked so, so that `npm start` does
  // not rebuild it under the web server the other specs are using.
  const buildId = path.join(ROOT, 'apps', 'web', '.next', 'BUILD_ID');
  if (fs.existsSync(buildId)) fs.utimesSync(buildId, new Date(), new Date());
  let output = '';
  // The web app's own settings only: no WEB_URL.
  const { WEB_URL: _unset, ...environment } = process.env;
  const platform: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs')], {
    cwd: ROOT,
    env: {
      ...environment,
      DATA_DIR: dataDir,
      API_PORT: String(apiPort),
      PORT: String(webPort),
      NEXTAUTH_URL: webUrl,
      ADMIN_EMAIL: admin.email,
      ADMIN_NAME: admin.name,
      ADMIN_PASSWORD: admin.password,
      DEMO_PERSONS: '300',
      SMTP_URL: '',
      LOG_LEVEL: 'warn',
      PASSWORD_HASH_COST: '10',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  platform.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  platform.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    await expect.poll(() => output, { timeout: 150_000, intervals: [500] }).toContain('The platform is running.');
    expect(output).toContain(`First administrator created: ${admin.email} (password from ADMIN_PASSWORD)`);
    expect(output).toContain(`Sign in as ${admin.email} with ADMIN_PASSWORD.`);
    expect(output).toContain(`Web app:  ${webUrl}`);
    expect(output).toContain('Second factor: required;');

    // The administrator's first sign-in sets up a second factor (an authenticator app here).
    await signIn(page, admin, `${webUrl}/api/auth/signin`);
    await expect(page.getByRole('heading', { name: 'Set up a second factor' })).toBeVisible();
    await page.getByRole('button', { name: 'Use an authenticator app' }).click();
    const secret = (await page.getByTestId('totp-secret').innerText()).trim();
    await page.getByLabel('Code from your authenticator app').fill(await totpCode(secret));
    await page.getByRole('button', { name: 'Confirm and sign in' }).click();
    await page.getByRole('button', { name: 'I have saved them: continue' }).click();
    await expectShell(page, admin.name);

    // The administrator invites someone through the web app on its own address.
    await page.goto(`${webUrl}/users`);
    await page.getByRole('button', { name: 'Invite users' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite users' });
    await dialog.getByLabel('Email addresses').fill('newcomer@example.org');
    await dialog.getByRole('button', { name: 'Send invitations' }).click();
    await expect(dialog.getByRole('table')).toBeVisible();

    const outbox = path.join(dataDir, 'outbox');
    await expect.poll(() => (fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((name) => name.endsWith('.eml')).length : 0), { timeout: 15_000 }).toBeGreaterThan(0);
    const eml = fs.readdirSync(outbox).map((name) => fs.readFileSync(path.join(outbox, name), 'utf8')).find((text) => /^To: newcomer@example.org$/im.test(text))!;
    const link = invitationLinkIn(eml)!;
    expect(link.startsWith(`${webUrl}/accept-invitation#token=`), link).toBe(true);
    await page.context().clearCookies();
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Accept your invitation' })).toBeVisible();
    await expect(page.getByText('newcomer@example.org').first()).toBeVisible();
  } finally {
    // Stopping `npm start` stops both servers.
    const exited = new Promise<void>((resolve) => platform.once('exit', () => resolve()));
    platform.kill('SIGTERM');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  expect(await answers(`http://127.0.0.1:${apiPort}/api/v1/users/me/`)).toBe(false);
  expect(await answers(`${webUrl}/api/auth/providers`)).toBe(false);
});
