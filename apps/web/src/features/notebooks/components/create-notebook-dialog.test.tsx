import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NOTEBOOK_CREATION_FALLBACK } from '@/lib/errors/error-catalogue';
import { setNotifier, type Toast } from '@/lib/errors/notifier';
import { fakeApi, renderWithStore, type RecordedCall } from '@/test-support/render';
import { aNotebook, catalogueAnswer, NOTEBOOKS_PATH, WORKBENCH_ID } from '@/test-support/notebook-fixtures';
import CreateNotebookDialog from './create-notebook-dialog';

function collectToasts() {
  const toasts: Toast[] = [];
  setNotifier({ show: (toast) => toasts.push(toast) });
  return toasts;
}

afterEach(() => {
  setNotifier(null);
  vi.unstubAllGlobals();
});

const posts = (calls: RecordedCall[]) => calls.filter((call) => call.method === 'POST');

async function openDialog(answer: (call: RecordedCall) => { status?: number; body: unknown }) {
  const calls = fakeApi((call) => catalogueAnswer(call) ?? answer(call));
  const onClose = vi.fn();
  renderWithStore(<CreateNotebookDialog open workbenchId={WORKBENCH_ID} onClose={onClose} />);
  const dialog = await screen.findByRole('dialog', { name: 'Create a notebook' });
  // The defaults arrive with the catalogue.
  await waitFor(() => expect(dialog).toHaveTextContent('n1-standard-4 (4 vCPU, 15 GB)'));
  await waitFor(() => expect(dialog).toHaveTextContent('Python 3 (pandas, scikit-learn)'));
  return { calls, onClose, dialog };
}

describe('the create-notebook dialog', { timeout: 45_000 }, () => {
  it("picks the spec's defaults from the catalogue and posts notebookCreate", async () => {
    const toasts = collectToasts();
    const { calls, onClose, dialog } = await openDialog(() => ({ status: 202, body: aNotebook({ status: 'PROVISIONING' }) }));
    expect(dialog).toHaveTextContent('australia-southeast1-a (Sydney)');
    expect(within(dialog).queryByLabelText('Accelerator count')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Kidney outcomes' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create notebook' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(toasts).toContainEqual(expect.objectContaining({ type: 'success', title: 'Notebook created' }));
    expect(posts(calls)).toEqual([
      expect.objectContaining({
        path: NOTEBOOKS_PATH,
        body: {
          name: 'Kidney outcomes', environment: 'python3-datascience', zone: 'australia-southeast1-a',
          machine_type: 'n1-standard-4', accelerator_type: null, accelerator_count: 0,
        },
      }),
    ]);
  });

  it('needs a name', async () => {
    const { calls, dialog } = await openDialog(() => ({ status: 202, body: aNotebook() }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create notebook' }));
    expect(await within(dialog).findByText('Give the notebook a name.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(posts(calls)).toEqual([]);
  });

  it("shows 'Notebook Creation Error.' with the server's reason and stays open", async () => {
    const detail = 'accelerator_type: nvidia-tesla-t4 cannot be provided on this host.';
    const toasts = collectToasts();
    const { onClose, dialog } = await openDialog(() => ({ status: 422, body: { detail } }));
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Kidney outcomes' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create notebook' }));
    await waitFor(() => expect(toasts).toEqual([{ type: 'error', title: 'Notebook Creation Error.', description: detail, duration: 0 }]));
    expect(onClose).not.toHaveBeenCalled();
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Kidney outcomes');
  });

  it('falls back to the spec text when the server gives no reason', async () => {
    const toasts = collectToasts();
    const { dialog } = await openDialog(() => ({ status: 500, body: {} }));
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Kidney outcomes' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create notebook' }));
    await waitFor(() => expect(toasts).toContainEqual(expect.objectContaining({ type: 'error', title: 'Notebook Creation Error.', description: NOTEBOOK_CREATION_FALLBACK })));
  });
});
