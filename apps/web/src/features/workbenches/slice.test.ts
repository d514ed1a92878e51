import { describe, expect, it } from 'vitest';
import { makeStore } from '@/app/store';
import {
  cohortToggled,
  creationStarted,
  documentToggled,
  draftRestored,
  editStarted,
  initialWorkbenchWizardState,
  memberAdded,
  memberRemoved,
  nameChanged,
  purposeChanged,
  queryToggled,
  stepChanged,
  wizardReset,
} from './slice';
import { aWorkbench, COLLEAGUE, ME, PURPOSE } from '@/test-support/workbench-fixtures';
import { clearDraft, loadDraft, saveDraft, WIZARD_STORAGE_KEY } from './wizard-storage';

const cohort = { id: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a', name: 'Women with type 2 diabetes', tags: ['diabetes'], personCountDisplay: '273' };

function startedStore() {
  const store = makeStore();
  store.dispatch(creationStarted({ id: ME.id, email: ME.email, name: ME.name }));
  return store;
}

describe('the workbench wizard slice', () => {
  it('holds exactly the fields of the spec', () => {
    expect(Object.keys(initialWorkbenchWizardState).sort()).toEqual(['cohorts', 'documents', 'isInitialised', 'name', 'purpose', 'queries', 'stepIndex', 'users']);
    expect(Object.keys(initialWorkbenchWizardState.cohorts).sort()).toEqual(['cohorts', 'totalTags']);
  });

  it('starts a new workbench with its creator as the only owner', () => {
    const state = startedStore().getState().workbenchWizard;
    expect(state.isInitialised).toBe(true);
    expect(state.users).toEqual([{ id: ME.id, email: ME.email, name: ME.name, role: 'OWNER' }]);
    expect(state.stepIndex).toBe(0);
  });

  it('keeps what was entered when moving Next and Back', () => {
    const store = startedStore();
    store.dispatch(nameChanged('Diabetes and kidneys'));
    store.dispatch(purposeChanged(PURPOSE));
    store.dispatch(stepChanged(1));
    store.dispatch(cohortToggled({ cohort, picked: true }));
    store.dispatch(queryToggled({ id: 'q1', name: 'Diabetes query', picked: true }));
    store.dispatch(stepChanged(2));
    store.dispatch(memberAdded({ ...COLLEAGUE, role: 'READER' }));
    store.dispatch(stepChanged(1));
    store.dispatch(stepChanged(0));
    const state = store.getState().workbenchWizard;
    expect(state).toMatchObject({ name: 'Diabetes and kidneys', purpose: PURPOSE, stepIndex: 0 });
    expect(state.cohorts.cohorts.map((item) => item.id)).toEqual([cohort.id]);
    expect(state.queries).toEqual([{ id: 'q1', sourceId: 'q1', name: 'Diabetes query' }]);
    expect(state.users.map((user) => user.role)).toEqual(['OWNER', 'READER']);
  });

  it('keeps the step within the four steps', () => {
    const store = startedStore();
    store.dispatch(stepChanged(9));
    expect(store.getState().workbenchWizard.stepIndex).toBe(3);
    store.dispatch(stepChanged(-1));
    expect(store.getState().workbenchWizard.stepIndex).toBe(0);
  });

  it('starts an edit from the workbench, naming its copied queries by the copy and keeping pinned cohort versions', () => {
    const store = makeStore();
    const workbench = aWorkbench();
    store.dispatch(editStarted(workbench));
    const state = store.getState().workbenchWizard;
    expect(state.name).toBe(workbench.name);
    expect(state.queries).toEqual([{ id: workbench.queries[0]!.id, sourceId: workbench.queries[0]!.source_query_id, name: 'Diabetes query' }]);
    expect(state.cohorts.cohorts[0]).toMatchObject({ id: workbench.cohorts[0]!.id, version: 1 });
    expect(state.users.map((user) => [user.email, user.role])).toEqual([
      [ME.email, 'OWNER'],
      [COLLEAGUE.email, 'READER'],
    ]);

    // Unticking the original of a copied query removes the copy; ticking it again adds the original.
    store.dispatch(queryToggled({ id: workbench.queries[0]!.source_query_id!, name: 'Diabetes query', picked: false }));
    expect(store.getState().workbenchWizard.queries).toEqual([]);
    // A cohort picked again after being removed comes back without a pin: the current version.
    store.dispatch(cohortToggled({ cohort, picked: false }));
    store.dispatch(cohortToggled({ cohort, picked: true }));
    expect(store.getState().workbenchWizard.cohorts.cohorts[0]!.version).toBeUndefined();
  });

  it('adds a member once, changing the role of one already in, and removes them', () => {
    const store = startedStore();
    store.dispatch(memberAdded({ ...COLLEAGUE, role: 'READER' }));
    store.dispatch(memberAdded({ ...COLLEAGUE, role: 'WRITER' }));
    expect(store.getState().workbenchWizard.users.map((user) => user.role)).toEqual(['OWNER', 'WRITER']);
    store.dispatch(memberRemoved(COLLEAGUE.id));
    expect(store.getState().workbenchWizard.users).toHaveLength(1);
  });
});

describe('the kept draft', () => {
  it('comes back after a reload: a new store restores the same step and choices', () => {
    clearDraft();
    const store = startedStore();
    store.dispatch(nameChanged('Diabetes and kidneys'));
    store.dispatch(documentToggled({ id: 'd1', name: 'protocol.pdf', sizeBytes: 1200, picked: true }));
    store.dispatch(stepChanged(2));
    saveDraft({ mode: 'create' }, store.getState().workbenchWizard);

    const kept = loadDraft({ mode: 'create' });
    expect(kept?.target).toEqual({ mode: 'create' });
    const reloaded = makeStore();
    reloaded.dispatch(draftRestored(kept!.draft));
    expect(reloaded.getState().workbenchWizard).toEqual(store.getState().workbenchWizard);
  });

  it('belongs to one wizard: a create draft does not open in an edit, an edit keeps the version it was based on', () => {
    clearDraft();
    saveDraft({ mode: 'create' }, startedStore().getState().workbenchWizard);
    expect(loadDraft({ mode: 'edit', workbenchId: 'w1', version: 4 })).toBeNull();

    const store = makeStore();
    store.dispatch(editStarted(aWorkbench({ id: 'w1', version: 3 })));
    saveDraft({ mode: 'edit', workbenchId: 'w1', version: 3 }, store.getState().workbenchWizard);
    expect(loadDraft({ mode: 'edit', workbenchId: 'w1', version: 4 })?.target).toEqual({ mode: 'edit', workbenchId: 'w1', version: 3 });
    expect(loadDraft({ mode: 'edit', workbenchId: 'w2', version: 3 })).toBeNull();
    expect(loadDraft({ mode: 'create' })).toBeNull();
  });

  it('is ignored when unreadable or not started, and gone once cleared or reset', () => {
    sessionStorage.setItem(WIZARD_STORAGE_KEY, '{not json');
    expect(loadDraft({ mode: 'create' })).toBeNull();
    saveDraft({ mode: 'create' }, initialWorkbenchWizardState);
    expect(loadDraft({ mode: 'create' })).toBeNull();
    const store = startedStore();
    saveDraft({ mode: 'create' }, store.getState().workbenchWizard);
    clearDraft();
    expect(loadDraft({ mode: 'create' })).toBeNull();
    store.dispatch(wizardReset());
    expect(store.getState().workbenchWizard).toEqual(initialWorkbenchWizardState);
  });
});
