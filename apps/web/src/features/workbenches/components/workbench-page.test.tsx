import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderWithStore, type RecordedCall } from '@/test-support/render';
import { setNotifier, type Toast } from '@/lib/errors/notifier';
import { refusalsReceived } from '../refusals-slice';
import { aWorkbench, COLLEAGUE, ME } from '@/test-support/workbench-fixtures';
import { WorkbenchPage } from './workbench-page';

const router = { push: vi.fn(() => Promise.resolve(true)), pathname: '/workbenches/[workbenchId]', query: {}, isReady: true };
vi.mock('next/router', () => ({ useRouter: () => router }));
// The page loads its parts with next/dynamic; in tests they load with React.lazy.
vi.mock('next/dynamic', async () => {
  const { lazy, Suspense, createElement } = await import('react');
  return {
    default: (load: () => Promise<unknown>) => {
      const Part = lazy(async () => {
        const loaded = (await load()) as { default?: React.ComponentType } | React.ComponentType;
        return { default: typeof loaded === 'function' ? loaded : loaded.default! };
      });
      return (props: object) => createElement(Suspense, { fallback: null }, createElement(Part, props));
    },
  };
});

const workbench = aWorkbench();
let toasts: Toast[] = [];
beforeEach(() => {
  toasts = [];
  setNotifier({ show: (toast) => toasts.push(toast) });
  router.push.mockClear();
});
afterEach(() => {
  setNotifier(null);
  vi.unstubAllGlobals();
});

function answering(answer: (call: RecordedCall) => { status?: number; body: unknown } | undefined = () => undefined, me = ME) {
  return fakeApi((call) => {
    const given = answer(call);
    if (given) return given;
    if (call.path === '/api/v1/users/me/') return { body: me };
    return { body: workbench };
  });
}

describe('a workbench page', { timeout: 30_000 }, () => {
  it('shows its purpose, members and roles, data with sizes and provisioning, and Edit and Delete for an owner', async () => {
    answering();
    renderWithStore(<WorkbenchPage workbenchId={workbench.id} />);
    // The first test loads the lazy detail module for the whole file.
    expect(await screen.findByRole('heading', { level: 1, name: workbench.name }, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByTestId('workbench-purpose')).toHaveTextContent(workbench.purpose);
    const members = screen.getByRole('region', { name: 'Members (2)' });
    expect(within(members).getByRole('row', { name: /stella@example.org/ })).toHaveTextContent('Reader');
    expect(screen.getByText('1 cohort · 1 saved query · 0 documents')).toBeInTheDocument();
    expect(screen.getAllByRole('row', { name: /Women with type 2 diabetes/ })[0]).toHaveTextContent('273');
    expect(await screen.findByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Notebooks' })).toBeInTheDocument();
  });

  it('shows rows per table on the Data tab, and tabs for notebooks and dashboards', async () => {
    answering();
    renderWithStore(<WorkbenchPage workbenchId={workbench.id} />);
    await userEvent.click(await screen.findByRole('tab', { name: 'Data' }));
    await userEvent.click(screen.getByRole('button', { name: 'Rows per table' }));
    const rows = screen.getByRole('table', { name: 'Rows of Women with type 2 diabetes per table' });
    expect(within(rows).getAllByRole('row').map((row) => row.textContent)).toEqual(['TableRows', 'person273', 'condition_occurrence1,204']);
    expect(screen.getByRole('tab', { name: 'Notebooks' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Dashboards' })).toBeInTheDocument();
  });

  it('shows provisioning progress, and asks again until the data is ready', async () => {
    let asked = 0;
    const provisioning = aWorkbench({ state: 'PROVISIONING', cohorts: [{ ...workbench.cohorts[0]!, state: 'PROVISIONING', progress: 0.4, row_counts: null }] });
    answering((call) => {
      if (call.path !== `/api/v1/workbenches/${workbench.id}/`) return undefined;
      asked += 1;
      return { body: asked === 1 ? provisioning : workbench };
    });
    renderWithStore(<WorkbenchPage workbenchId={workbench.id} />);
    expect(await screen.findByRole('progressbar', { name: 'Provisioning of Women with type 2 diabetes' })).toHaveAttribute('aria-valuenow', '40');
    await waitFor(() => expect(screen.getByTestId('workbench-state')).toHaveTextContent('Ready'), { timeout: 8_000 });
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('offers no Edit or Delete to a reader', async () => {
    const calls = fakeApi((call) => (call.path === '/api/v1/users/me/' ? { body: { ...ME, id: COLLEAGUE.id } } : { body: { ...workbench, my_role: 'READER' } }));
    renderWithStore(<WorkbenchPage workbenchId={workbench.id} />);
    expect(await screen.findByRole('heading', { level: 1, name: workbench.name })).toBeInTheDocument();
    await waitFor(() => expect(calls.some((call) => call.path === '/api/v1/users/me/')).toBe(true));
    expect(screen.getByText('Your role').closest('.hdp-record-fact')).toHaveTextContent('Your roleReader');
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('says so when the workbench does not exist or the user is not a member, without a toast', async () => {
    answering((call) => (call.path.startsWith('/api/v1/workbenches/') ? { status: 404, body: { detail: 'Workbench not found.' } } : undefined));
    renderWithStore(<WorkbenchPage workbenchId={workbench.id} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Workbench not found' })).toBeInTheDocument();
    expect(screen.getByText(/does not exist, or you are not one of its members/)).toBeInTheDocument();
    expect(toasts).toEqual([]);
  });

  it('deletes after a confirmation, and shows a refusal with the reason', async () => {
    const calls = answering((call) => (call.method === 'DELETE' ? { status: 409, body: { detail: 'A notebook of this workbench is running: stop it first.' } } : undefined));
    renderWithStore(<WorkbenchPage workbenchId={workbench.id} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Delete this workbench?')).toBeInTheDocument();
    await userEvent.click(within(document.querySelector<HTMLElement>('.ant-popconfirm')!).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toasts).toHaveLength(1));
    expect(calls.some((call) => call.method === 'DELETE' && call.path === `/api/v1/workbenches/${workbench.id}/`)).toBe(true);
    expect(toasts[0]).toMatchObject({ type: 'error', title: 'Error! Unable to delete workbench.', description: 'A notebook of this workbench is running: stop it first.' });
    expect(router.push).not.toHaveBeenCalled();
  });

  it('lists by name what the last change left out, until dismissed', async () => {
    answering();
    const { store } = renderWithStore(<WorkbenchPage workbenchId={workbench.id} />);
    store.dispatch(refusalsReceived({ workbenchId: workbench.id, refused: [{ kind: 'user', id: COLLEAGUE.id, name: COLLEAGUE.email, reason: 'the account is disabled' }] }));
    const list = await screen.findByRole('list', { name: 'Not applied' });
    expect(list).toHaveTextContent('Member stella@example.org: the account is disabled');
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('list', { name: 'Not applied' })).not.toBeInTheDocument();
  });
});
