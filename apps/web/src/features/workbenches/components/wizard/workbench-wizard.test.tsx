import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Workbench } from '@hdp/contract';
import { makeStore } from '@/app/store';
import { aCohort } from '@/test-support/cohort-fixtures';
import { fakeApi, type RecordedCall } from '@/test-support/render';
import { setNotifier, type Toast } from '@/lib/errors/notifier';
import { WORKBENCH_EDITS_WITH_ERRORS } from '@/lib/errors/error-catalogue';
import { formatDateTime } from '@/lib/dates/local-times';
import { aWorkbench, COLLEAGUE, ME, PURPOSE } from '@/test-support/workbench-fixtures';
import { clearDraft } from '../../wizard-storage';
import WorkbenchWizard from './workbench-wizard';

const router = { push: vi.fn(() => Promise.resolve(true)), replace: vi.fn(), reload: vi.fn(), pathname: '/workbenches/new', query: {}, isReady: true };
vi.mock('next/router', () => ({ useRouter: () => router }));

const cohort = aCohort({ id: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a', name: 'Women with type 2 diabetes', status: 'PUBLISHED', person_count_display: '273', author: COLLEAGUE, published_by: COLLEAGUE });
const query = {
  id: '5b0e8a4e-8d0a-4f43-9d7c-1b2e3f4a5b6c', name: 'Diabetes query', description: '', query: { id: 'root', combinator: 'and', rules: [] }, version: 1,
  created_by: ME.id, created_by_email: ME.email, created_at: '2026-11-20T10:00:00.000Z', updated_at: '2026-11-20T10:00:00.000Z',
};
const document = {
  id: '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d', name: 'protocol.pdf', content_type: 'application/pdf', size_bytes: 12_000, sha256: 'x', scan_status: 'CLEAN',
  owner: { id: ME.id, email: ME.email }, created_at: '2026-11-20T10:00:00.000Z',
};

type Answer = { status?: number; body: unknown };
function answering(submit: (call: RecordedCall) => Answer = () => ({ status: 201, body: aWorkbench() })) {
  return fakeApi((call) => {
    if (call.path === '/api/v1/cohorts/') return { body: { cohorts: [cohort], total: 1, total_capped: false, total_tags: ['diabetes', 'women'] } };
    if (call.path === '/api/v1/queries/') return { body: { queries: [query], total: 1 } };
    if (call.path === '/api/v1/documents/') return { body: { documents: [document], total: 1, total_capped: false } };
    if (call.path === '/api/v1/users/directory/') {
      const search = call.query.get('search')!.toLowerCase();
      const found = [ME, COLLEAGUE].filter((person) => person.email.includes(search) || (person.name ?? '').toLowerCase().includes(search));
      return { body: { users: found.map(({ id, email, name }) => ({ id, email, name })), more: false } };
    }
    // Step 1 asks for the user's workbenches of the same name before moving on.
    if (call.method === 'GET' && call.path === '/api/v1/workbenches/') return { body: { workbenches: [], total: 0, total_capped: false } };
    if (call.path.startsWith('/api/v1/workbenches/')) return submit(call);
    return { status: 404, body: { detail: 'not here' } };
  });
}

let toasts: Toast[] = [];
beforeEach(() => {
  clearDraft();
  toasts = [];
  setNotifier({ show: (toast) => toasts.push(toast) });
  router.push.mockClear();
  router.reload.mockClear();
});
afterEach(() => {
  setNotifier(null);
  vi.unstubAllGlobals();
});

function renderWizard(store = makeStore(), workbench?: Workbench) {
  const view = render(
    <Provider store={store}>
      <WorkbenchWizard me={ME} workbench={workbench} />
    </Provider>,
  );
  return { store, ...view };
}

const stepHeading = () => screen.getByRole('heading', { level: 2, name: /^Step / });
const next = async () => {
  await userEvent.click(screen.getByRole('button', { name: 'Next' }));
  // Leaving Description first asks whether the name is taken.
  await act(() => new Promise((resolve) => setTimeout(resolve, 30)));
};

async function fillDescription() {
  await userEvent.click(screen.getByLabelText('Name'));
  await userEvent.paste('Diabetes and kidneys');
  await userEvent.click(screen.getByLabelText('Research purpose'));
  await userEvent.paste(PURPOSE);
}

describe('the workbench wizard', { timeout: 60_000 }, () => {
  it('shows the four creation steps and will not leave Description until name and purpose are long enough', async () => {
    answering();
    renderWizard();
    for (const title of ['Description', 'Add Data', 'Add Users', 'Review']) expect(screen.getByText(title, { selector: '.ant-steps-item-title' })).toBeInTheDocument();
    expect(stepHeading()).toHaveTextContent('Step 1 of 4: Description');
    expect(screen.getByTestId('purpose-count')).toHaveTextContent('0 of at least 50 characters: 50 more needed.');

    await userEvent.type(screen.getByLabelText('Name'), 'Di');
    await userEvent.type(screen.getByLabelText('Research purpose'), 'Too short.');
    expect(screen.getByTestId('purpose-count')).toHaveTextContent('10 of at least 50 characters: 40 more needed.');
    await next();
    expect(stepHeading()).toHaveTextContent('Step 1 of 4: Description');
    expect(screen.getByText('The name needs at least 3 characters.')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Research purpose')).toHaveAccessibleDescription(/at least 50 characters \(10 so far\)/);
  });

  it('keeps what was entered through Back and Next, and through a reload', async () => {
    answering();
    const first = renderWizard();
    await fillDescription();
    await next();
    expect(stepHeading()).toHaveTextContent('Step 2 of 4: Add Data');
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Women with type 2 diabetes' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Diabetes query' }));
    expect(within(screen.getByRole('list', { name: 'Chosen cohorts' })).getByText('Women with type 2 diabetes')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByLabelText('Name')).toHaveValue('Diabetes and kidneys');
    expect(screen.getByLabelText('Research purpose')).toHaveValue(PURPOSE);
    await next();
    expect(screen.getByRole('checkbox', { name: 'Women with type 2 diabetes' })).toBeChecked();

    // A reload: a new page with a new store finds the draft in the tab's session storage.
    first.unmount();
    renderWizard();
    expect(stepHeading()).toHaveTextContent('Step 2 of 4: Add Data');
    expect(await screen.findByRole('checkbox', { name: 'Diabetes query' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Women with type 2 diabetes' })).toBeChecked();
  });

  it('keeps the creator as the only owner, adds a member with a role and creates the workbench from the review', async () => {
    const calls = answering();
    renderWizard();
    await fillDescription();
    await next();
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Women with type 2 diabetes' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'protocol.pdf' }));
    await next();
    expect(stepHeading()).toHaveTextContent('Step 3 of 4: Add Users');
    expect(screen.getByRole('button', { name: `Remove ${ME.email}` })).toBeDisabled();
    expect(screen.getByRole('button', { name: `Remove ${ME.email}` })).toHaveAccessibleDescription('You are the only owner: make someone else an owner first.');

    // Colleagues are found in the member directory once three characters are typed and typing pauses.
    const person = screen.getByRole('combobox', { name: 'Person (name or email)' });
    await userEvent.click(person);
    expect(await screen.findByText('Type at least 3 characters of a name or an email.')).toBeInTheDocument();
    await userEvent.type(person, 'ros');
    expect(await screen.findByText('Everyone found for “ros” is already a member.')).toBeInTheDocument();
    await userEvent.clear(person);
    await userEvent.type(person, 'Stel');
    await userEvent.click(await screen.findByText(`${COLLEAGUE.name} (${COLLEAGUE.email})`, { selector: '.ant-select-item-option-content' }));
    const searches = calls.filter((call) => call.path === '/api/v1/users/directory/').map((call) => call.query.toString());
    // Debounced: one call per pause in typing, none for what was typed in between.
    expect(searches).toEqual(['search=ros&limit=10', 'search=Stel&limit=10']);
    await userEvent.click(screen.getByRole('button', { name: 'Add member' }));
    expect(screen.getByRole('combobox', { name: `Role of ${COLLEAGUE.email}` })).toBeInTheDocument();
    await next();

    expect(stepHeading()).toHaveTextContent('Step 4 of 4: Review');
    expect(screen.getByTestId('review-name')).toHaveTextContent('Diabetes and kidneys');
    expect(within(screen.getByRole('list', { name: 'Cohorts to release' })).getByText('Women with type 2 diabetes: 273 persons, version 1')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Members and roles' })).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      `${ME.name} (${ME.email}): Owner`,
      `${COLLEAGUE.name} (${COLLEAGUE.email}): Reader`,
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(router.push).toHaveBeenCalledWith(`/workbenches/${aWorkbench().id}`));
    const post = calls.find((call) => call.method === 'POST')!;
    expect(post.path).toBe('/api/v1/workbenches/');
    expect(post.body).toEqual({
      name: 'Diabetes and kidneys',
      purpose: PURPOSE,
      cohorts: [{ id: cohort.id, version: 1 }],
      queries: [],
      documents: [document.id],
      users: [
        { id: ME.id, role: 'OWNER' },
        { id: COLLEAGUE.id, role: 'READER' },
      ],
    });
    expect(toasts.map((toast) => toast.title)).toEqual(['Workbench created']);
    expect(sessionStorage.length).toBe(0);
  });

  it('titles the edit steps, sends PUT with the version the edit began from and answers a stale version above the buttons, keeping the edits', async () => {
    const calls = answering(() => ({
      status: 409,
      body: { detail: 'version: this workbench was changed by Stella (stella@example.org) at 2026-11-26T16:24:54.013Z (it is now at version 4; your edits were based on version 3). Reload it and make your edits again.' },
    }));
    const workbench = aWorkbench({ version: 3 });
    renderWizard(makeStore(), workbench);
    for (const title of ['Description', 'Manage Data', 'Manage Users', 'Review']) expect(screen.getByText(title, { selector: '.ant-steps-item-title' })).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue(workbench.name);
    await next();
    await next();
    await next();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    const alert = await screen.findByRole('alert', { name: 'Someone else saved this workbench while you were editing it' });
    const put = calls.find((call) => call.method === 'PUT')!;
    expect(put.path).toBe(`/api/v1/workbenches/${workbench.id}/`);
    expect(put.body).toMatchObject({ version: 3, queries: [workbench.queries[0]!.id], cohorts: [{ id: workbench.cohorts[0]!.id, version: 1 }] });
    // Plain words, local time, no field name, and no advice to make the edits again: they are kept.
    expect(alert).toHaveTextContent(`This workbench was changed by Stella (stella@example.org) on ${formatDateTime('2026-11-26T16:24:54.013Z')} (it is now at version 4; your edits were based on version 3).`);
    expect(alert).not.toHaveTextContent('version:');
    expect(alert).not.toHaveTextContent('make your edits again');
    expect(alert).toHaveTextContent('Your edits are kept.');
    expect(toasts).toEqual([]);
    // A second Save would be refused the same way; Back stays.
    await waitFor(() => expect(screen.getByText('Save', { selector: 'button *' }).closest('button')).toBeDisabled());
    expect(screen.getByRole('button', { name: 'Back' })).toBeEnabled();
    expect(router.push).not.toHaveBeenCalled();
    // The reload must load the new version, not bring the stale draft back; the user's edits are kept apart.
    expect(sessionStorage.getItem('hdp.workbench-wizard')).toBeNull();
    expect(JSON.parse(sessionStorage.getItem('hdp.workbench-wizard.unsaved')!).workbenchId).toBe(workbench.id);
    await userEvent.click(screen.getByRole('button', { name: 'Load the saved version' }));
    expect(router.reload).toHaveBeenCalledOnce();
  });

  it('takes an edit refused for a name already used back to the name, marked with the reason, keeping the draft', async () => {
    answering(() => ({ status: 409, body: { detail: 'name: you already have a workbench called "renal"; choose another name.' } }));
    const workbench = aWorkbench();
    renderWizard(makeStore(), workbench);
    await userEvent.clear(screen.getByLabelText('Name'));
    await userEvent.click(screen.getByLabelText('Name'));
    await userEvent.paste('Renal');
    for (let step = 0; step < 3; step++) await next();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(stepHeading()).toHaveTextContent('Step 1 of 4: Description'));
    expect(screen.getByText('You already have a workbench called "renal"; choose another name.')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(toasts).toEqual([]);
    expect(JSON.parse(sessionStorage.getItem('hdp.workbench-wizard')!).draft.name).toBe('Renal');
  });

  it('answers a 418 with the warning listing what was refused, and opens the workbench showing the refused parts by name', async () => {
    const created = aWorkbench({ cohorts: [] });
    answering(() => ({
      status: 418,
      body: { detail: 'Part of the workbench was not applied.', workbench: created, refused: [{ kind: 'cohort', id: cohort.id, reason: 'it was archived after it was picked' }] },
    }));
    const { store } = renderWizard();
    await fillDescription();
    await next();
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Women with type 2 diabetes' }));
    await next();
    await next();
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(router.push).toHaveBeenCalledWith(`/workbenches/${created.id}`));
    expect(toasts[0]).toMatchObject({ type: 'warning', title: 'Workbench Edits Submitted with Errors', duration: 0 });
    render(<>{toasts[0]!.description}</>);
    expect(screen.getByText(WORKBENCH_EDITS_WITH_ERRORS)).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Not applied' })).getByText('Cohort: it was archived after it was picked')).toBeInTheDocument();
    expect(store.getState().workbenchRefusals[created.id]).toEqual([
      { kind: 'cohort', id: cohort.id, name: 'Women with type 2 diabetes', reason: 'it was archived after it was picked' },
    ]);
  });
});
