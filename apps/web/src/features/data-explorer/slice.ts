import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { QueryGroup } from '@hdp/contract';
import { sameTree } from './query-tree';
import type { RuleProblem } from './rule-validation';

/** A fixed id for the root group, so the server and the browser render the same tree. */
export const ROOT_GROUP_ID = 'root';

/** A new, empty query tree: combinator 'and', no rules (spec §3). */
export function emptyQuery(): QueryGroup {
  return { id: ROOT_GROUP_ID, combinator: 'and', rules: [] };
}

/** Client state of the data explorer (spec §3). */
export interface DataExplorerState {
  queryId: string | null;
  queryName: string;
  query: QueryGroup;
  isQueryEdited: boolean;
  isAnonymousQuery: boolean;
  isShowQueryEditor: boolean;
  /** Run or Save was tried with invalid rules: the builder now marks them (and keeps doing so as they are fixed). */
  isShowRuleProblems: boolean;
  /** The rule the server refused on the last Run or Save, until the tree changes. */
  serverRuleProblem: RuleProblem | null;
}

export const initialDataExplorerState: DataExplorerState = {
  queryId: null,
  queryName: '',
  query: emptyQuery(),
  isQueryEdited: false,
  isAnonymousQuery: true,
  isShowQueryEditor: true,
  isShowRuleProblems: false,
  serverRuleProblem: null,
};

export const dataExplorerSlice = createSlice({
  name: 'dataExplorer',
  initialState: initialDataExplorerState,
  reducers: {
    /** The tree changed in the editor: the query is now edited (ids the editor adds are not a change). */
    queryChanged(state, action: PayloadAction<QueryGroup>) {
      if (!sameTree(state.query, action.payload)) {
        state.isQueryEdited = true;
        state.serverRuleProblem = null;
      }
      state.query = action.payload;
    },
    /** A saved query was opened: its tree replaces the editor's, unedited. */
    savedQueryOpened(state, action: PayloadAction<{ id: string; name: string; query: QueryGroup }>) {
      const { id, name, query } = action.payload;
      state.queryId = id;
      state.queryName = name;
      state.query = { ...query, id: query.id ?? ROOT_GROUP_ID };
      state.isQueryEdited = false;
      state.isAnonymousQuery = false;
      state.isShowQueryEditor = true;
      state.isShowRuleProblems = false;
      state.serverRuleProblem = null;
    },
    /** The query was saved (created, saved as, or updated): it is no longer edited. */
    querySaved(state, action: PayloadAction<{ id: string; name: string }>) {
      state.queryId = action.payload.id;
      state.queryName = action.payload.name;
      state.isQueryEdited = false;
      state.isAnonymousQuery = false;
    },
    queryRenamed(state, action: PayloadAction<string>) {
      state.queryName = action.payload;
    },
    /** Starts over with an empty, unsaved query (also after the open query was deleted). */
    newQueryStarted() {
      return initialDataExplorerState;
    },
    /** Run or Save met invalid rules: show them in the builder. */
    ruleProblemsShown(state) {
      state.isShowRuleProblems = true;
      state.isShowQueryEditor = true;
    },
    /** The server refused the tree and named a rule (null: clears it). */
    serverRuleProblemFound(state, action: PayloadAction<RuleProblem | null>) {
      state.serverRuleProblem = action.payload;
      if (action.payload) state.isShowQueryEditor = true;
    },
    queryEditorToggled(state, action: PayloadAction<boolean | undefined>) {
      state.isShowQueryEditor = action.payload ?? !state.isShowQueryEditor;
    },
  },
  selectors: {
    selectDataExplorer: (state) => state,
    selectQuery: (state) => state.query,
  },
});

export const {
  queryChanged,
  savedQueryOpened,
  querySaved,
  queryRenamed,
  newQueryStarted,
  queryEditorToggled,
  ruleProblemsShown,
  serverRuleProblemFound,
} = dataExplorerSlice.actions;
export const { selectDataExplorer, selectQuery } = dataExplorerSlice.selectors;
