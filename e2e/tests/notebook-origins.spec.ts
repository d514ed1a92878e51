import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { ACCOUNTS } from '../support/stack';
import { apiAs } from '../support/api';
import { notebookOrigin, openFromWebApp, runInKernel, type NotebookOpen } from '../support/notebooks';
import { signIn } from '../support/pages';

/**
 * Security review N1, end to end in the browser: a READER of a workbench plants a script in their
 * own notebook and sends the workbench's OWNER an open link. Before, one click ran the script in
 * the API's origin, where it read the OWNER's released rows and ran code in the OWNER's notebook.
 * Now the script is not loaded, the link sets nothing in the OWNER's browser, and a script running
 * in another notebook's origin can neither read nor drive the OWNER's notebook or the API.
 */
const stamp = Date.now();
const MARKER = `planted-${stamp}`;
type Api = Awaited<ReturnType<typeof apiAs>>;
let owner: Api;
let reader: Api;
let victimId = '';
let attackerId = '';
let workbenchId = '';
let readersWorkbenchId = '';
const victimName = `Owner's analysis (${stamp})`;

/** What the planted script tries against the victim's notebook; it reports each attempt. */
function attack(victimOrigin: string, victimId: string, apiOrigin: string, kernelId: string) {
  return `(async () => {
    const base = ${JSON.stringify(`${victimOrigin}/jupyter/${victimId}/`)};
    const results = {};
    try {
      const read = await fetch(base + 'api/contents/released?type=directory', { credentials: 'include' });
      results.read = 'status ' + read.status + ' ' + (await read.text()).slice(0, 200);
    } catch (error) { results.read = 'blocked'; }
    try {
      await fetch(base + 'api/kernels', { method: 'POST', credentials: 'include', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{}' });
      results.kernel = 'sent';
    } catch (error) { results.kernel = 'blocked'; }
    results.socket = await new Promise((resolve) => {
      const socket = new WebSocket(base.replace('http', 'ws') + 'api/kernels/${kernelId}/channels?session_id=x');
      socket.onopen = () => { socket.send('{}'); resolve('opened'); };
      socket.onerror = () => resolve('refused');
    });
    try {
      const me = await fetch(${JSON.stringify(`${apiOrigin}/api/v1/users/me/`)}, { credentials: 'include' });
      results.api = 'status ' + me.status;
    } catch (error) { results.api = 'blocked'; }
    results.cookie = document.cookie;
    window.__attack = results;
  })();`;
}

async function waitRunning(api: Api, wb: string, id: string): Promise<void> {
  for (let attempt = 0; attempt < 240; attempt++) {
    const list = await api.call<{ notebooks: { id: string; status: string; status_reason: string | null }[] }>('GET', `/workbenches/${wb}/notebooks/`);
    const current = list.notebooks.find((n) => n.id === id)!;
    if (current.status === 'RUNNING') return;
    if (current.status === 'FAILED') throw new Error(`the notebook failed: ${current.status_reason}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the notebook did not start');
}

async function ready(api: Api, wb: string): Promise<void> {
  for (let attempt = 0; attempt < 120; attempt++) {
    if ((await api.call<{ state: string }>('GET', `/workbenches/${wb}/`)).state === 'READY') return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the workbench did not become ready');
}

test.describe('notebooks cannot be turned against each other (N1)', () => {
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    owner = await apiAs(ACCOUNTS.researcher);
    reader = await apiAs(ACCOUNTS.steward);
    const readerId = (await reader.call<{ id: string }>('GET', '/users/me/')).id;
    workbenchId = (
      await owner.call<{ id: string }>('POST', '/workbenches/', {
        name: `Owner's workbench (${stamp})`,
        purpose: 'To study how HbA1c control relates to kidney outcomes in women with type 2 diabetes.',
        users: [{ id: readerId, role: 'READER' }],
      })
    ).id;
    readersWorkbenchId = (
      await reader.call<{ id: string }>('POST', '/workbenches/', { name: `Reader's workbench (${stamp})`, purpose: 'To check that a notebook cannot reach another user’s notebook.' })
    ).id;
    await Promise.all([ready(owner, workbenchId), ready(reader, readersWorkbenchId)]);
    victimId = (await owner.call<{ id: string }>('POST', `/workbenches/${workbenchId}/notebooks/`, { name: victimName, environment: 'python3-datascience' })).id;
    attackerId = (await reader.call<{ id: string }>('POST', `/workbenches/${readersWorkbenchId}/notebooks/`, { name: `Bait (${stamp})`, environment: 'python3-datascience' })).id;
    await Promise.all([waitRunning(owner, workbenchId, victimId), waitRunning(reader, readersWorkbenchId, attackerId)]);
  });

  // Stopped at the end: a running notebook keeps its home mounted.
  test.afterAll(async () => {
    test.setTimeout(60_000);
    const stop = async (api: Api, wb: string, id: string) => {
      if (!id) return;
      await api.answer('POST', `/workbenches/${wb}/notebooks/${id}/stop/`);
      for (let attempt = 0; attempt < 100; attempt++) {
        const list = await api.call<{ notebooks: { id: string; status: string }[] }>('GET', `/workbenches/${wb}/notebooks/`);
        if (list.notebooks.find((n) => n.id === id)?.status !== 'STOPPING') return;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    };
    await Promise.all([stop(owner, workbenchId, victimId), stop(reader, readersWorkbenchId, attackerId)]);
  });

  test("a READER's planted script and open link reach nothing of the OWNER's notebook", async ({ page, context, browser }) => {
    test.setTimeout(240_000);
    const webUrl = process.env.E2E_WEB_URL!;
    const apiUrl = process.env.E2E_API_URL!;

    // 1. The READER is not shown the OWNER's notebook id.
    const listed = await reader.call<{ notebooks: { id: string }[] }>('GET', `/workbenches/${workbenchId}/notebooks/`);
    expect(listed.notebooks.map((n) => n.id)).not.toContain(victimId);

    // 2. The READER plants custom.js in their own notebook's home (from its kernel, as the attack
    //    did); Jupyter does not load it: its configuration is the platform's, read-only.
    const readerContext = await browser.newContext();
    const readerPage = await readerContext.newPage();
    await openFromWebApp(readerPage, webUrl, await reader.call<NotebookOpen>('POST', `/workbenches/${readersWorkbenchId}/notebooks/${attackerId}/open/`));
    const planted = await runInKernel(
      readerPage,
      attackerId,
      `import os; os.makedirs('/home/nb/.jupyter/custom', exist_ok=True); open('/home/nb/.jupyter/custom/custom.js', 'w').write('window.__planted = ${JSON.stringify(MARKER)};'); print('planted')`,
    );
    expect(planted.trim()).toBe('planted');
    await readerPage.goto(`${notebookOrigin(attackerId)}/jupyter/${attackerId}/tree`);
    await expect(readerPage.locator('#notebook_list')).toBeVisible({ timeout: 15_000 });
    await readerPage.waitForLoadState('networkidle');
    expect(await readerPage.evaluate(() => (window as unknown as { __planted?: string }).__planted)).toBeUndefined();
    const served = await readerPage.evaluate(async (id) => (await fetch(`/jupyter/${id}/custom/custom.js`)).text(), attackerId);
    expect(served).not.toContain(MARKER);

    // 3. The OWNER opens their notebook from the web app; it is served at its own origin.
    await signIn(page, ACCOUNTS.researcher);
    await page.goto(`/workbenches/${workbenchId}`);
    await page.getByRole('tab', { name: 'Notebooks' }).click();
    const row = page.getByRole('region', { name: 'Notebooks' }).getByRole('row').filter({ hasText: victimName });
    const [jupyter] = await Promise.all([context.waitForEvent('page'), row.getByRole('button', { name: `Open ${victimName}` }).click()]);
    await expect(jupyter).toHaveURL(`${notebookOrigin(victimId)}/jupyter/${victimId}/tree`, { timeout: 30_000 });
    await expect(jupyter.locator('#notebook_list')).toBeVisible({ timeout: 15_000 });
    expect(await runInKernel(jupyter, victimId, "print('owner', 6 * 7)")).toContain('owner 42');
    const kernels = async () => jupyter.evaluate(async (id) => ((await (await fetch(`/jupyter/${id}/api/kernels`)).json()) as unknown[]).length, victimId);
    const kernelsBefore = await kernels();
    const kernelId = await jupyter.evaluate(async (id) => ((await (await fetch(`/jupyter/${id}/api/kernels`)).json()) as { id: string }[])[0]!.id, victimId);
    const cookies = await context.cookies();
    const notebookCookie = cookies.find((cookie) => cookie.name === 'hdp_notebook')!;
    // Host-only: for the notebook's own host, no other.
    expect(notebookCookie.domain).toBe(`${victimId}.notebooks.localhost`);
    expect(notebookCookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });

    // 4. The READER sends the OWNER an open link to their own notebook: as a link, and as a page
    //    elsewhere that posts it. Neither sets a session in the OWNER's browser.
    const ticket = await reader.call<NotebookOpen>('POST', `/workbenches/${readersWorkbenchId}/notebooks/${attackerId}/open/`);
    await page.goto(`${ticket.url}?ticket=${ticket.ticket}`);
    await expect(page.getByRole('heading', { name: 'This link does not open a notebook' })).toBeVisible();
    const elsewhere = http.createServer((_request, response) => {
      response.setHeader('content-type', 'text/html');
      response.end(
        `<!doctype html><form method="post" action="${ticket.url}"><input type="hidden" name="ticket" value="${ticket.ticket}"></form>` +
          '<script>document.forms[0].submit()</script>',
      );
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    try {
      await page.goto(`http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/`);
      await expect(page.getByRole('heading', { name: 'This link does not open a notebook' })).toBeVisible({ timeout: 15_000 });
    } finally {
      elsewhere.close();
    }
    expect((await context.cookies()).filter((cookie) => cookie.domain.startsWith(attackerId))).toEqual([]);

    // 5. Worst case: script running in another notebook's origin, in the OWNER's browser (which
    //    holds the OWNER's notebook cookie). It can neither read the OWNER's notebook, nor start a
    //    kernel in it, nor open its kernel's WebSocket, nor call the API as the OWNER.
    const bait = `${notebookOrigin(attackerId)}/jupyter/${attackerId}/bait`;
    await context.route(bait, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>bait</title><p>bait</p>' }));
    await page.goto(bait);
    await page.evaluate(attack(notebookOrigin(victimId), victimId, apiUrl, kernelId));
    const results = (await page.waitForFunction(() => (window as unknown as { __attack?: Record<string, string> }).__attack, undefined, { timeout: 20_000 }).then((handle) =>
      handle.jsonValue(),
    )) as Record<string, string>;
    expect(results.read).toBe('blocked');
    expect(results.socket).toBe('refused');
    expect(results.api).not.toBe('status 200');
    expect(results.cookie).toBe('');
    expect(await kernels()).toBe(kernelsBefore);

    // The control: the same script in the OWNER's own notebook page reads it (the test can fail).
    await jupyter.evaluate(attack(notebookOrigin(victimId), victimId, apiUrl, kernelId));
    const own = (await jupyter.waitForFunction(() => (window as unknown as { __attack?: Record<string, string> }).__attack).then((handle) => handle.jsonValue())) as Record<string, string>;
    expect(own.read).toMatch(/^status 200 /);
    expect(own.socket).toBe('opened');

    // 6. The refused opens are in the audit log, naming whose ticket it was.
    const admin = await apiAs(ACCOUNTS.admin);
    const refused = await admin.call<{ entries: { actor: { email: string | null }; resource_id?: string | null; details?: Record<string, unknown> }[] }>(
      'GET',
      '/logs/?event_type=NOTEBOOK_OPEN_REFUSED&limit=50',
    );
    const mine = refused.entries.filter((entry) => JSON.stringify(entry).includes(attackerId));
    expect(mine.length).toBeGreaterThanOrEqual(2);
    expect(mine.some((entry) => entry.actor.email === ACCOUNTS.steward.email)).toBe(true);
    await readerContext.close();
  });
});
