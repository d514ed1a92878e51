import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setNotifier, type Toast } from '@/lib/errors/notifier';
import { fakeApi, renderWithStore } from '@/test-support/render';
import { aCohortDetail } from '@/test-support/cohort-fixtures';
import CreateCohortDialog from './create-cohort-dialog';

const push = vi.fn(() => Promise.resolve(true));
vi.mock('next/router', () => ({ useRouter: () => ({ push }) }));

const EXECUTION = '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';

function collectToasts() {
  const toasts: Toast[] = [];
  setNotifier({ show: (toast) => toasts.push(toast) });
  return toasts;
}

afterEach(() => {
  setNotifier(null);
  push.mockClear();
  vi.unstubAllGlobals();
});

describe('the create-cohort dialog', { timeout: 20_000 }, () => {
  it('posts the name, description, tags and the execution, then opens the new cohort', async () => {
    const created = aCohortDetail({ name: 'Diabetic women' });
    const calls = fakeApi(({ method, path }) => (method === 'POST' && path === '/api/v1/cohorts/' ? { status: 201, body: created } : { status: 404, body: {} }));
    const toasts = collectToasts();
    const onClose = vi.fn();
    renderWithStore(<CreateCohortDialog open executionId={EXECUTION} queryName="Diabetes query" result={{ person_count_display: '273' }} onClose={onClose} />);
    const dialog = await screen.findByRole('dialog', { name: 'Create a cohort' });
    expect(dialog).toHaveTextContent('The persons of this run of Diabetes query (273) become a draft cohort.');
    const name = within(dialog).getByLabelText('Name');
    expect(name).toHaveValue('Diabetes query');
    fireEvent.change(name, { target: { value: 'Diabetic women' } });
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'From the explorer' } });
    await userEvent.type(within(dialog).getByRole('combobox', { name: 'Tags' }), 'Diabetes{Enter}');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create cohort' }));
    await waitFor(() => expect(push).toHaveBeenCalledWith(`/cohorts/${created.id}`));
    expect(calls.map((call) => call.body)).toEqual([{ name: 'Diabetic women', description: 'From the explorer', tags: ['diabetes'], executionId: EXECUTION }]);
    expect(onClose).toHaveBeenCalled();
    expect(toasts).toContainEqual(expect.objectContaining({ type: 'success', title: 'Cohort created' }));
  });

  it('needs a name', async () => {
    const calls = fakeApi(() => ({ body: {} }));
    renderWithStore(<CreateCohortDialog open executionId={EXECUTION} queryName="" result={{ person_count_display: '273' }} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Create a cohort' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create cohort' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Give the cohort a name.');
    expect(calls).toEqual([]);
  });

  it("shows 'Cohort Creation Error.' with the API's reason and stays open", async () => {
    const detail = 'The data was reloaded since this run: run the query again.';
    fakeApi(() => ({ status: 409, body: { detail } }));
    const toasts = collectToasts();
    const onClose = vi.fn();
    renderWithStore(<CreateCohortDialog open executionId={EXECUTION} queryName="Diabetes query" result={{ person_count_display: '273' }} onClose={onClose} />);
    const dialog = await screen.findByRole('dialog', { name: 'Create a cohort' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create cohort' }));
    await waitFor(() => expect(toasts).toEqual([{ type: 'error', title: 'Cohort Creation Error.', description: detail, duration: 0 }]));
    expect(onClose).not.toHaveBeenCalled();
    expect(push).not.toHaveBeenCalled();
  });
});
