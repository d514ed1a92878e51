import http from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import { ACCOUNTS } from '../support/stack';
import { expectShell, signIn, sideBarItem } from '../support/pages';

/** Every page, the sign-in pages (next-auth's built-in one included) and a few of their states. */
const PAGES = [
  '/api/auth/signin',
  '/api/auth/signin?error=CredentialsSignin',
  '/error?error=SignInThrottled',
  '/signout',
  '/api/auth/signin?error=SessionRevoked',
  '/accept-invitation',
  '/',
  '/data-explorer',
  '/cohorts',
  '/cohorts/6f1c2a52-8f0e-4a43-9d7c-1b2e3f4a5b6c',
  '/workbenches',
  '/workbenches/6f1c2a52-8f0e-4a43-9d7c-1b2e3f4a5b6c',
  '/documents',
  '/users',
  '/audit-log',
];

const directives = (policy: string) => new Map(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));

test('every page and sign-in page carries the security headers, with a fresh script nonce', async ({ request }) => {
  const nonces = new Set<string>();
  for (const url of PAGES) {
    const answer = await request.get(url, { maxRedirects: 0 });
    expect(answer.status(), url).toBe(200);
    const headers = answer.headers();
    expect(headers['x-content-type-options'], url).toBe('nosniff');
    expect(headers['x-frame-options'], url).toBe('DENY');
    expect(headers['referrer-policy'], url).toBe('no-referrer');
    expect(headers['cross-origin-opener-policy'], url).toBe('same-origin');
    expect(headers['permissions-policy'], url).toContain('camera=()');
    const policy = directives(headers['content-security-policy'] ?? '');
    expect(policy.get('frame-ancestors'), url).toEqual(["'none'"]);
    expect(policy.get('object-src'), url).toEqual(["'none'"]);
    const scripts = policy.get('script-src') ?? [];
    expect(scripts, url).not.toContain("'unsafe-eval'");
    expect(scripts, url).not.toContain("'unsafe-inline'");
    const nonce = scripts.find((s) => s.startsWith("'nonce-"))?.slice(7, -1);
    expect(nonce, url).toBeTruthy();
    nonces.add(nonce!);
    expect(policy.get('style-src'), url).toEqual(["'self'", `'nonce-${nonce}'`]);
    // Every script and style element of the page carries this answer's nonce.
    const html = await answer.text();
    for (const tag of html.match(/<(script|style)\b[^>]*>/g) ?? []) {
      if (!/type="application\/json"/.test(tag)) expect(tag, url).toContain(`nonce="${nonce}"`);
    }
  }
  expect(nonces.size).toBe(PAGES.length);
});

/** Collects what the browser reports about the Content-Security-Policy: violation events and console messages. */
async function watchPolicy(page: Page): Promise<string[]> {
  const reports: string[] = [];
  await page.exposeFunction('reportPolicyViolation', (text: string) => reports.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { reportPolicyViolation(text: string): void }).reportPolicyViolation(
        `${location.pathname}: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sample})`,
      );
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) reports.push(`${page.url()}: ${message.text()}`);
  });
  return reports;
}

test('signing in and visiting every page breaks no rule of the Content-Security-Policy', async ({ page }) => {
  test.setTimeout(90_000);
  const reports = await watchPolicy(page);
  await signIn(page, { email: ACCOUNTS.admin.email, password: 'not-the-password' });
  await expect(page).toHaveURL(/error=CredentialsSignin/);
  await signIn(page, ACCOUNTS.admin);
  await expectShell(page, ACCOUNTS.admin.name);
  for (const url of PAGES.slice(5)) {
    await page.goto(url);
    await page.waitForLoadState('networkidle');
  }
  // Client-side navigation: page chunks and styles loaded after the first page.
  await page.goto('/data-explorer');
  await sideBarItem(page, 'Users').click();
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  await page.getByRole('button', { name: 'Invite users' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await sideBarItem(page, 'Cohorts').click();
  await expect(page.getByRole('heading', { name: 'Cohorts' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(reports).toEqual([]);
});

/**
 * One sign-in through the web app's next-auth route, from a given local address (the whole of
 * 127.0.0.0/8 is this machine): the web server sees each address as a different browser.
 */
async function signInFrom(localAddress: string, email: string, password: string): Promise<string> {
  const web = new URL(test.info().project.use.baseURL ?? process.env.E2E_WEB_URL!);
  const call = (path: string, options: { method?: string; cookie?: string; body?: string } = {}) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const request = http.request(
        {
          host: web.hostname,
          port: web.port,
          path,
          method: options.method ?? 'GET',
          localAddress,
          headers: {
            ...(options.cookie && { cookie: options.cookie }),
            ...(options.body && { 'content-type': 'application/x-www-form-urlencoded' }),
          },
        },
        (answer) => {
          let body = '';
          answer.on('data', (chunk: Buffer) => (body += chunk.toString()));
          answer.on('end', () => resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body }));
        },
      );
      request.on('error', reject);
      request.end(options.body);
    });
  const csrf = await call('/api/auth/csrf');
  const cookie = (csrf.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  const body = new URLSearchParams({ csrfToken, email, password, callbackUrl: `${web.origin}/data-explorer`, json: 'true' }).toString();
  const answer = await call('/api/auth/callback/credentials', { method: 'POST', cookie, body });
  return (JSON.parse(answer.body) as { url: string }).url;
}

test("failed sign-ins from one browser do not lock out another browser's sign-in", async () => {
  test.setTimeout(60_000);
  for (let i = 0; i < 5; i += 1) {
    expect(await signInFrom('127.0.0.2', `nobody${i}@example.org`, 'wrong-password')).toContain('error=CredentialsSignin');
  }
  expect(await signInFrom('127.0.0.2', 'someone@example.org', 'wrong-password')).toContain('error=SignInThrottled');
  // Another browser, the right password: signed in (the answer leads on to the page, not to an error).
  const elsewhere = await signInFrom('127.0.0.3', ACCOUNTS.researcher.email, ACCOUNTS.researcher.password);
  expect(elsewhere).toMatch(/\/data-explorer$/);
});
