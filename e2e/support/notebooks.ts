import type { Page } from '@playwright/test';

/** What the open call answers: the notebook's own open URL and a single-use ticket. */
export interface NotebookOpen {
  url: string;
  ticket: string;
}

/**
 * Opens a notebook in `page` as the web app does: from a page of the web app's origin, the ticket
 * is posted in a form to the notebook's own host (a link or a page elsewhere opens nothing).
 */
export async function openFromWebApp(page: Page, webUrl: string, open: NotebookOpen): Promise<void> {
  // Any page of the web app's origin will do; the error page stays put (no redirect to race).
  await page.goto(`${webUrl}/error`);
  await page.waitForLoadState('networkidle');
  await page.evaluate(({ url, ticket }) => {
    const referrer = document.createElement('meta');
    referrer.name = 'referrer';
    referrer.content = 'origin';
    document.head.append(referrer);
    const form = document.createElement('form');
    form.method = 'post';
    form.action = url;
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = 'ticket';
    input.value = ticket;
    form.append(input);
    document.body.append(form);
    // After this call has returned: the navigation would otherwise end it.
    setTimeout(() => form.submit(), 0);
  }, open);
  await page.waitForURL(/\/jupyter\/[0-9a-f-]{36}\/tree/, { timeout: 30_000 });
}

/** A notebook's own origin: `http://<id>.notebooks.localhost:<API port>`. */
export function notebookOrigin(notebookId: string): string {
  return `http://${notebookId}.notebooks.localhost:${new URL(process.env.E2E_API_URL!).port}`;
}

/**
 * Runs Python in a new kernel of the notebook whose page `page` shows, over the kernel WebSocket
 * as Jupyter's own page does; answers what it printed.
 */
export async function runInKernel(page: Page, notebookId: string, code: string): Promise<string> {
  return page.evaluate(
    async ({ notebookId, code }) => {
      const base = `/jupyter/${notebookId}/`;
      const created = await fetch(`${base}api/kernels`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"python3"}' });
      if (created.status !== 201) throw new Error(`kernel: ${created.status}`);
      const { id } = (await created.json()) as { id: string };
      const socket = new WebSocket(`${location.origin.replace('http', 'ws')}${base}api/kernels/${id}/channels?session_id=${crypto.randomUUID()}`);
      await new Promise((resolve, reject) => {
        socket.onopen = resolve;
        socket.onerror = () => reject(new Error('kernel WebSocket refused'));
      });
      const msgId = crypto.randomUUID();
      let printed = '';
      const done = new Promise<void>((resolve, reject) => {
        socket.onmessage = (event) => {
          const message = JSON.parse(String(event.data)) as { msg_type: string; parent_header: { msg_id?: string }; content: Record<string, unknown> };
          if (message.parent_header.msg_id !== msgId) return;
          if (message.msg_type === 'stream') printed += String(message.content.text);
          if (message.msg_type === 'error') reject(new Error(String(message.content.evalue)));
          if (message.msg_type === 'status' && message.content.execution_state === 'idle') resolve();
        };
      });
      socket.send(
        JSON.stringify({
          header: { msg_id: msgId, username: '', session: crypto.randomUUID(), msg_type: 'execute_request', version: '5.3', date: new Date().toISOString() },
          parent_header: {},
          metadata: {},
          content: { code, silent: false, store_history: false, user_expressions: {}, allow_stdin: false, stop_on_error: true },
          channel: 'shell',
          buffers: [],
        }),
      );
      await done;
      socket.close();
      return printed;
    },
    { notebookId, code },
  );
}
