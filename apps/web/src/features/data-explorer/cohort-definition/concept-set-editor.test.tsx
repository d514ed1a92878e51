import { useState } from 'react';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConceptSet, ConceptSetItem, SavedConceptSet } from '@hdp/contract';
import { fakeApi, renderWithStore } from '@/test-support/render';
import { ConceptSetEditor, SavedConceptSetPicker } from './concept-set-editor';

const ID = '5b3f7c1e-8a8e-4f3b-9c1e-2f6a7d8e9f00';
const item = (conceptId: number): ConceptSetItem => ({ conceptId, includeDescendants: true, isExcluded: false, includeMapped: false });

function aSavedSet(overrides: Partial<SavedConceptSet> = {}): SavedConceptSet {
  return {
    id: ID,
    name: 'Diclofenac',
    description: '',
    items: [item(1124300)],
    version: 3,
    latest_version: 3,
    resolved_concept_count: null,
    used_by_queries: 0,
    created_by: '6b3f7c1e-8a8e-4f3b-9c1e-2f6a7d8e9f01',
    created_by_email: 'researcher@example.org',
    created_at: '2026-11-20T10:00:00.000Z',
    updated_at: '2026-11-21T10:00:00.000Z',
    versions: [],
    ...overrides,
  };
}

const concept = { concept_id: 1124300, concept_name: 'Diclofenac', domain_id: 'Drug', vocabulary_id: 'RxNorm', concept_code: '3355', concept_class_id: 'Ingredient', standard_concept: 'S' };

afterEach(() => vi.unstubAllGlobals());

describe('ConceptSetEditor', { timeout: 60_000 }, () => {
  it('shows a pinned saved set read-only, says when a newer version exists and updates to it', async () => {
    const calls = fakeApi(({ path }) => {
      if (path === `/api/v1/concept-sets/${ID}/`) return { body: aSavedSet({ items: [item(1124300), item(1118084)], version: 3, latest_version: 3 }) };
      return { body: { concepts: [concept] } };
    });
    const onChange = vi.fn();
    const set: ConceptSet = { id: 2, name: 'Diclofenac', expression: { items: [item(1124300)] }, savedConceptSet: { id: ID, version: 2 } };
    renderWithStore(<ConceptSetEditor set={set} onChange={onChange} onRemove={() => {}} />);
    expect(screen.getByText(/Saved concept set, version 2: the definition uses this version until you update it\./)).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Add a concept to Diclofenac' })).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Descendants: concept 1124300' })).toBeDisabled();
    expect(await screen.findByText('A newer version of Diclofenac exists: version 3 (this definition uses version 2).')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Update to version 3' }));
    expect(onChange).toHaveBeenLastCalledWith({ id: 2, name: 'Diclofenac', expression: { items: [item(1124300), item(1118084)] }, savedConceptSet: { id: ID, version: 3 } });
    expect(calls.some((c) => c.path === `/api/v1/concept-sets/${ID}/` && !c.query.has('version'))).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Edit a copy' }));
    expect(onChange).toHaveBeenLastCalledWith({ id: 2, name: 'Diclofenac (copy)', expression: { items: [item(1124300)] } });
  });

  it('saves a set of the definition to the library and pins the version made', async () => {
    const calls = fakeApi(({ method, path, body }) => {
      if (method === 'POST' && path === '/api/v1/concept-sets/') return { status: 201, body: aSavedSet({ ...(body as object), version: 1, latest_version: 1 }) };
      return { body: { concepts: [concept] } };
    });
    const onChange = vi.fn();
    const set: ConceptSet = { id: 0, name: 'Diclofenac', expression: { items: [item(1124300)] } };
    renderWithStore(<ConceptSetEditor set={set} onChange={onChange} onRemove={() => {}} />);
    await userEvent.click(screen.getByRole('button', { name: 'Save to the library' }));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith({ id: 0, name: 'Diclofenac', expression: { items: [item(1124300)] }, savedConceptSet: { id: ID, version: 1 } }));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ name: 'Diclofenac', items: [item(1124300)] });
  });

  it('says why the library refused a set', async () => {
    fakeApi(({ method }) => (method === 'POST' ? { status: 400, body: { detail: 'name: a concept set of that name exists already' } } : { body: { concepts: [] } }));
    renderWithStore(<ConceptSetEditor set={{ id: 0, name: 'GI bleed', expression: { items: [item(192671)] } }} onChange={() => {}} onRemove={() => {}} />);
    await userEvent.click(screen.getByRole('button', { name: 'Save to the library' }));
    expect(await screen.findByText('The concept set was not saved: name: a concept set of that name exists already')).toBeInTheDocument();
  });
});

function EditorHarness({ initial, seen }: { initial: ConceptSet; seen: (set: ConceptSet) => void }) {
  const [set, setSet] = useState(initial);
  return (
    <ConceptSetEditor
      set={set}
      onChange={(next) => {
        seen(next);
        setSet(next);
      }}
      onRemove={() => {}}
    />
  );
}

describe('ConceptSetEditor: a pinned set changed and saved as its next version', { timeout: 60_000 }, () => {
  it('opens the pinned set for change, saves it as the next version of the saved set, and pins that version', async () => {
    const calls = fakeApi(({ method, path, body }) => {
      if (method === 'PATCH' && path === `/api/v1/concept-sets/${ID}/`) return { body: aSavedSet({ ...(body as object), version: 4, latest_version: 4 }) };
      if (path === `/api/v1/concept-sets/${ID}/`) return { body: aSavedSet({ items: [item(1124300), item(1118084)], version: 3, latest_version: 3 }) };
      return { body: { concepts: [concept] } };
    });
    const seen = vi.fn();
    renderWithStore(<EditorHarness initial={{ id: 2, name: 'Diclofenac', expression: { items: [item(1124300), item(1118084)] }, savedConceptSet: { id: ID, version: 3 } }} seen={seen} />);
    await userEvent.click(screen.getByRole('button', { name: 'Change and save as a new version' }));
    expect(seen).toHaveBeenLastCalledWith({ id: 2, name: 'Diclofenac', expression: { items: [item(1124300), item(1118084)] }, changedFrom: { id: ID, version: 3, name: 'Diclofenac' } });
    expect(screen.getByText(/Changed from the saved concept set Diclofenac, version 3\./)).toBeInTheDocument();
    // Its concepts can be changed now; the name stays, so only the items are sent.
    await userEvent.click(screen.getByRole('button', { name: 'Remove concept 1118084' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save as a new version of Diclofenac' }));
    await waitFor(() => expect(seen).toHaveBeenLastCalledWith({ id: 2, name: 'Diclofenac', expression: { items: [item(1124300)] }, savedConceptSet: { id: ID, version: 4 } }));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ items: [item(1124300)] });
    expect(await screen.findByText(/Saved concept set, version 4: the definition uses this version until you update it\./)).toBeInTheDocument();
  });

  it("says why the library refused the new version (another researcher's set), and keeps the changes", async () => {
    fakeApi(({ method, path }) => {
      if (method === 'PATCH') return { status: 404, body: { detail: 'Concept set does not exist.' } };
      return path === `/api/v1/concept-sets/${ID}/` ? { body: aSavedSet() } : { body: { concepts: [concept] } };
    });
    const seen = vi.fn();
    renderWithStore(<EditorHarness initial={{ id: 2, name: 'Diclofenac', expression: { items: [item(1124300)] }, savedConceptSet: { id: ID, version: 3 } }} seen={seen} />);
    await userEvent.click(screen.getByRole('button', { name: 'Change and save as a new version' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save as a new version of Diclofenac' }));
    expect(await screen.findByText('The concept set was not saved: Concept set does not exist.')).toBeInTheDocument();
    expect(seen).toHaveBeenLastCalledWith({ id: 2, name: 'Diclofenac', expression: { items: [item(1124300)] }, changedFrom: { id: ID, version: 3, name: 'Diclofenac' } });
    expect(screen.getByRole('button', { name: 'Save to the library as a new set' })).toBeEnabled();
  });

  it('still offers the saved set\'s next version for a set changed before the definition was saved and opened again', async () => {
    const calls = fakeApi(({ method, body }) => (method === 'PATCH' ? { body: aSavedSet({ ...(body as object), version: 4, latest_version: 4 }) } : { body: { concepts: [concept] } }));
    const seen = vi.fn();
    renderWithStore(<EditorHarness initial={{ id: 2, name: 'Diclofenac, oral', expression: { items: [item(1124300)] }, changedFrom: { id: ID, version: 3, name: 'Diclofenac' } }} seen={seen} />);
    expect(screen.getByText(/Changed from the saved concept set Diclofenac, version 3\./)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save as a new version of Diclofenac' }));
    await waitFor(() => expect(seen).toHaveBeenLastCalledWith({ id: 2, name: 'Diclofenac, oral', expression: { items: [item(1124300)] }, savedConceptSet: { id: ID, version: 4 } }));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ name: 'Diclofenac, oral', items: [item(1124300)] });
  });
});

describe('SavedConceptSetPicker', { timeout: 60_000 }, () => {
  it('lists the library, newest first, and picks a set; one already used is not offered twice', async () => {
    const calls = fakeApi(() => ({ body: { concept_sets: [aSavedSet(), aSavedSet({ id: '7b3f7c1e-8a8e-4f3b-9c1e-2f6a7d8e9f02', name: 'GI bleed', version: 1, latest_version: 1 })], total: 2, total_capped: false } }));
    const onPick = vi.fn();
    renderWithStore(<SavedConceptSetPicker onPick={onPick} usedIds={new Set([ID])} />);
    await userEvent.click(screen.getByRole('combobox', { name: 'Use a saved concept set' }));
    await userEvent.click(await screen.findByText('GI bleed (version 1, 1 concept)', { selector: '.ant-select-item-option-content' }));
    expect(onPick).toHaveBeenCalledWith(expect.objectContaining({ name: 'GI bleed', version: 1 }));
    expect(screen.getByText('Diclofenac (version 3, 1 concept)', { selector: '.ant-select-item-option-content' }).closest('.ant-select-item-option')).toHaveClass('ant-select-item-option-disabled');
    expect(calls[0]!.query.get('order_by')).toBe('-updated_at');
  });
});
