import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setNotifier } from '@/lib/errors/notifier';
import { fakeApi, renderWithStore } from '@/test-support/render';
import { COLLEAGUE } from '@/test-support/workbench-fixtures';
import { aNotebook, aNotebookList, catalogueAnswer, NOTEBOOKS_PATH, WORKBENCH_ID } from '@/test-support/notebook-fixtures';
import NotebooksTab from './notebooks-tab';

const OWNER = { id: WORKBENCH_ID, my_role: 'OWNER' as const };

afterEach(() => {
  setNotifier(null);
  vi.unstubAllGlobals();
});

function rowOf(name: string) {
  return screen.getByRole('row', { name: new RegExp(name) });
}

describe('the notebooks tab', { timeout: 45_000 }, () => {
  it('lists notebooks with their status, environment, machine type, owner and the actions their abilities allow', async () => {
    const failed = aNotebook({
      id: '3e4f5a6b-7c8d-4e9f-8a1b-2c3d4e5f6a7b', name: 'Broken one', status: 'FAILED', status_reason: 'The server did not answer within 60 s.',
      machine_type: 'n1-standard-2', accelerator_type: 'nvidia-tesla-t4', accelerator_count: 1,
      owner: { ...COLLEAGUE }, abilities: { open: false, start: false, stop: false, delete: true },
    });
    const calls = fakeApi((call) => catalogueAnswer(call) ?? { body: aNotebookList([aNotebook(), failed]) });
    renderWithStore(<NotebooksTab workbench={OWNER} />);

    const running = await screen.findByRole('row', { name: /Kidney outcomes/ });
    expect(within(running).getByTestId('notebook-status')).toHaveTextContent('Running');
    await waitFor(() => expect(running).toHaveTextContent('Python 3 (pandas, scikit-learn)'));
    expect(running).toHaveTextContent('n1-standard-4');
    expect(running).toHaveTextContent('Rosalind Franklin');
    expect(within(running).getByRole('button', { name: 'Open Kidney outcomes' })).toBeVisible();
    expect(within(running).getByRole('button', { name: 'Stop Kidney outcomes' })).toBeVisible();
    expect(within(running).getByRole('button', { name: 'Delete Kidney outcomes' })).toBeVisible();
    expect(within(running).queryByRole('button', { name: 'Start Kidney outcomes' })).toBeNull();

    const broken = rowOf('Broken one');
    expect(within(broken).getByTestId('notebook-status')).toHaveTextContent('Failed');
    expect(within(broken).getByTestId('notebook-failure')).toHaveTextContent('The server did not answer within 60 s.');
    expect(broken).toHaveTextContent('n1-standard-2 + 1 × nvidia-tesla-t4');
    expect(broken).toHaveTextContent(COLLEAGUE.name);
    expect(within(broken).queryByRole('button', { name: /^(Open|Stop|Start)/ })).toBeNull();

    expect(screen.getByRole('button', { name: 'Create notebook' })).toBeVisible();
    const listCall = calls.find((call) => call.path === NOTEBOOKS_PATH)!;
    expect(Object.fromEntries(listCall.query)).toEqual({ skip: '0', limit: '10', order_by: '-created_at' });
  });

  it('shows a stopped notebook in the stopped style, and Open offers to start it', async () => {
    const stopped = aNotebook({ status: 'STOPPED', abilities: { open: false, start: true, stop: false, delete: true } });
    fakeApi((call) => catalogueAnswer(call) ?? { body: aNotebookList([stopped]) });
    renderWithStore(<NotebooksTab workbench={OWNER} />);
    const row = await screen.findByRole('row', { name: /Kidney outcomes/ });
    const tag = within(row).getByTestId('notebook-status');
    expect(tag).toHaveTextContent('Stopped');
    expect(tag).toHaveClass('notebook-status-stopped');
    await userEvent.click(within(row).getByRole('button', { name: 'Open Kidney outcomes' }));
    expect(await screen.findByRole('button', { name: 'Start and open' })).toBeInTheDocument();
    expect(screen.getByText('Start it and open it in a new tab when it is running?')).toBeInTheDocument();
  });

  it('follows a notebook from PROVISIONING to RUNNING by itself', async () => {
    let asked = 0;
    fakeApi((call) => {
      const catalogue = catalogueAnswer(call);
      if (catalogue) return catalogue;
      asked += 1;
      const status = asked < 2 ? 'PROVISIONING' : 'RUNNING';
      return { body: aNotebookList([aNotebook({ status, abilities: { open: status === 'RUNNING', start: false, stop: status === 'RUNNING', delete: status === 'RUNNING' } })]) };
    });
    renderWithStore(<NotebooksTab workbench={OWNER} />);
    const row = await screen.findByRole('row', { name: /Kidney outcomes/ });
    expect(within(row).getByTestId('notebook-status')).toHaveTextContent('Provisioning');
    expect(within(row).queryByRole('button', { name: 'Open Kidney outcomes' })).toBeNull();
    await waitFor(() => expect(within(rowOf('Kidney outcomes')).getByTestId('notebook-status')).toHaveTextContent('Running'), { timeout: 5_000 });
    expect(within(rowOf('Kidney outcomes')).getByRole('button', { name: 'Open Kidney outcomes' })).toBeVisible();
  });

  it('stops a notebook and refreshes the list', async () => {
    let stopped = false;
    const calls = fakeApi((call) => {
      if (call.method === 'POST' && call.path.endsWith('/stop/')) {
        stopped = true;
        return { status: 202, body: aNotebook({ status: 'STOPPING' }) };
      }
      const status = stopped ? 'STOPPED' : 'RUNNING';
      return catalogueAnswer(call) ?? { body: aNotebookList([aNotebook({ status, abilities: { open: !stopped, start: stopped, stop: !stopped, delete: true } })]) };
    });
    renderWithStore(<NotebooksTab workbench={OWNER} />);
    const row = await screen.findByRole('row', { name: /Kidney outcomes/ });
    await userEvent.click(within(row).getByRole('button', { name: 'Stop Kidney outcomes' }));
    await waitFor(() => expect(within(rowOf('Kidney outcomes')).getByTestId('notebook-status')).toHaveTextContent('Stopped'));
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([`${NOTEBOOKS_PATH}${aNotebook().id}/stop/`]);
  });

  it('says what to install instead of offering Create when the runtime cannot run here', async () => {
    const detail = 'Notebooks need Debian packages that are not installed: jupyter-notebook, bubblewrap.';
    fakeApi((call) => catalogueAnswer(call) ?? { body: aNotebookList([], { runtime_available: false, runtime_detail: detail }) });
    renderWithStore(<NotebooksTab workbench={OWNER} />);
    expect(await screen.findByText('Notebooks cannot run on this deployment yet')).toBeVisible();
    expect(screen.getByText(detail)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Create notebook' })).toBeNull();
  });

  it('offers no Create to a reader', async () => {
    fakeApi((call) => catalogueAnswer(call) ?? { body: aNotebookList([]) });
    renderWithStore(<NotebooksTab workbench={{ id: WORKBENCH_ID, my_role: 'READER' }} />);
    expect(await screen.findByText('No notebooks in this workbench yet.')).toBeVisible();
    expect(screen.getByText('Readers of a workbench can see its notebooks but not create them.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Create notebook' })).toBeNull();
  });
});
