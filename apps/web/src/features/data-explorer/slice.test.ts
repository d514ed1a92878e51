import { describe, expect, it } from 'vitest';
import { makeStore } from '@/app/store';
import {
  dataExplorerSlice,
  initialDataExplorerState,
  newQueryStarted,
  queryChanged,
  queryEditorToggled,
  queryRenamed,
  querySaved,
  savedQueryOpened,
  selectDataExplorer,
} from './slice';

const reduce = dataExplorerSlice.reducer;
const tree = { combinator: 'and' as const, rules: [{ field: 'person.age', operator: '>', value: 40 }] };

describe('the data explorer slice', () => {
  it('starts with an empty anonymous query: combinator and, no rules, not edited, editor shown', () => {
    expect(initialDataExplorerState).toEqual({
      queryId: null,
      queryName: '',
      query: { id: 'root', combinator: 'and', rules: [] },
      isQueryEdited: false,
      isAnonymousQuery: true,
      isShowQueryEditor: true,
      isShowRuleProblems: false,
      serverRuleProblem: null,
    });
    expect(selectDataExplorer(makeStore().getState())).toEqual(initialDataExplorerState);
  });

  it('marks the query edited when the tree changes', () => {
    const state = reduce(undefined, queryChanged(tree));
    expect(state.query).toEqual(tree);
    expect(state.isQueryEdited).toBe(true);
    expect(state.isAnonymousQuery).toBe(true);
  });

  it('opens a saved query unedited, with a fixed root id', () => {
    const edited = reduce(undefined, queryChanged(tree));
    const state = reduce(edited, savedQueryOpened({ id: 'q1', name: 'Diabetes', query: tree }));
    expect(state).toMatchObject({ queryId: 'q1', queryName: 'Diabetes', isQueryEdited: false, isAnonymousQuery: false });
    expect(state.query).toEqual({ ...tree, id: 'root' });
  });

  it('clears the edited marker on save, renames, toggles the editor and starts over', () => {
    let state = reduce(undefined, queryChanged(tree));
    state = reduce(state, querySaved({ id: 'q2', name: 'Women 40–65' }));
    expect(state).toMatchObject({ queryId: 'q2', queryName: 'Women 40–65', isQueryEdited: false, isAnonymousQuery: false });
    state = reduce(state, queryRenamed('Renamed'));
    expect(state.queryName).toBe('Renamed');
    state = reduce(state, queryEditorToggled(false));
    expect(state.isShowQueryEditor).toBe(false);
    state = reduce(state, queryEditorToggled());
    expect(state.isShowQueryEditor).toBe(true);
    expect(reduce(state, newQueryStarted())).toEqual(initialDataExplorerState);
  });
});
