import { useCallback, useEffect, useRef, useState } from 'react';
import type { Notebook, NotebookOpen } from '@hdp/contract';
import { showToast } from '@/lib/errors/notifier';
import { useOpenNotebookMutation, useStartNotebookMutation } from '../api/notebook-actions';

/**
 * A tab opened during the click. Browsers allow new tabs only in answer to a click, and the open
 * URL arrives after a call (or, for a stopped notebook, after its start), so the tab is opened
 * first and sent to the URL when it arrives.
 */
function openBlankTab(name: string): Window | null {
  const tab = window.open('', '_blank');
  if (tab) {
    tab.document.title = `Opening ${name}`;
    tab.document.body.textContent = `Opening the notebook ${name}…`;
  }
  return tab;
}

/**
 * Posts the ticket to the notebook's own origin from the tab, whose blank page is this app's: the
 * notebook accepts a ticket only in a form sent from the web app's origin, so a link to it (sent
 * by someone else) opens nothing. The page's policy sends no referrer, which would make the
 * form's `Origin` "null"; the tab's page asks for the origin to be sent, and nothing more.
 */
function postTicket(tab: Window | null, open: NotebookOpen): void {
  if (!tab || tab.closed) {
    showToast({
      type: 'error',
      title: 'The notebook could not open a tab',
      description: 'This browser blocked the new tab. Allow pop-ups for this site, then open the notebook again.',
      duration: 0,
    });
    return;
  }
  // The notebook's page must not be able to reach back into the platform's page.
  tab.opener = null;
  const page = tab.document;
  const referrer = page.createElement('meta');
  referrer.name = 'referrer';
  referrer.content = 'origin';
  page.head.append(referrer);
  const form = page.createElement('form');
  form.method = 'post';
  form.action = open.url;
  const ticket = page.createElement('input');
  ticket.type = 'hidden';
  ticket.name = 'ticket';
  ticket.value = open.ticket;
  form.append(ticket);
  page.body.append(form);
  form.submit();
}

/**
 * The open flow: asks the API for a single-use ticket and posts it to the notebook in a new tab.
 * A stopped notebook is started first and opened once the list (which polls while it is STARTING) shows it RUNNING.
 */
export function useOpenNotebook(workbenchId: string, notebooks: readonly Notebook[] | undefined) {
  const [openNotebook] = useOpenNotebookMutation();
  const [startNotebook] = useStartNotebookMutation();
  const [opening, setOpening] = useState<string | null>(null);
  // `moved`: the list has shown it leave STOPPED; until then a STOPPED row is the list before the start.
  const waiting = useRef<{ notebookId: string; tab: Window | null; moved: boolean } | null>(null);

  const openInto = useCallback(
    async (notebook: Pick<Notebook, 'id' | 'name'>, tab: Window | null) => {
      setOpening(notebook.id);
      try {
        postTicket(tab, await openNotebook({ workbenchId, notebookId: notebook.id }).unwrap());
      } catch {
        tab?.close();
        // The error catalogue has told the user.
      } finally {
        setOpening(null);
      }
    },
    [openNotebook, workbenchId],
  );

  const open = useCallback((notebook: Notebook) => void openInto(notebook, openBlankTab(notebook.name)), [openInto]);

  const startAndOpen = useCallback(
    async (notebook: Notebook) => {
      const tab = openBlankTab(notebook.name);
      setOpening(notebook.id);
      try {
        await startNotebook({ workbenchId, notebookId: notebook.id }).unwrap();
        waiting.current = { notebookId: notebook.id, tab, moved: false };
      } catch {
        tab?.close();
        setOpening(null);
      }
    },
    [startNotebook, workbenchId],
  );

  useEffect(() => {
    const pending = waiting.current;
    if (!pending) return;
    const notebook = notebooks?.find((item) => item.id === pending.notebookId);
    if (notebook && notebook.status !== 'STOPPED') pending.moved = true;
    if (notebook?.status === 'RUNNING') {
      waiting.current = null;
      void openInto(notebook, pending.tab);
    } else if ((notebooks && !notebook) || notebook?.status === 'FAILED' || (notebook?.status === 'STOPPED' && pending.moved)) {
      waiting.current = null;
      pending.tab?.close();
      setOpening(null);
      showToast({
        type: 'error',
        title: 'The notebook did not start',
        description: notebook?.status_reason ?? 'Its status is shown in the list; try starting it again.',
        duration: 0,
      });
    }
  }, [notebooks, openInto]);

  return { open, startAndOpen, opening };
}
