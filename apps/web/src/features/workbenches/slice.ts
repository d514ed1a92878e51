import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Workbench } from '@hdp/contract';
import type { WorkbenchMemberRole } from '@hdp/contract/workbench-rules';

/** A saved query picked for the workbench. `id` is what the call names: the original's id, or the workbench copy's once it is in. */
export interface PickedQuery {
  id: string;
  /** The saved query it came from (null when the original was deleted). */
  sourceId: string | null;
  name: string;
}

/**
 * A published cohort picked for the workbench: `version` is the version it releases (the published
 * one when picked, the pinned one once released) and `personCountDisplay` that version's persons.
 */
export interface PickedCohort {
  id: string;
  name: string;
  tags: string[];
  personCountDisplay: string;
  version?: number;
  /** A newer version awaiting a steward's review when it was picked (named on Review, never released). */
  awaitingVersion?: number;
  /** The version can no longer be released (its data were reloaded): why, for the chosen list and Review. */
  notReleasable?: string;
  /** Of a released cohort: the version released now, and a newer published version it can move to. */
  releasedVersion?: number;
  releasedCountDisplay?: string;
  newer?: { version: number; personCountDisplay: string; notReleasable?: string };
}

/** A document picked for the workbench; `id` works as for queries. */
export interface PickedDocument {
  id: string;
  sourceId: string | null;
  name: string;
  sizeBytes: number;
}

/** A member of the workbench with their role in it. */
export interface PickedMember {
  id: string;
  email: string;
  name: string | null;
  role: WorkbenchMemberRole;
}

/** Client state of the workbench wizard (spec §3). */
export interface WorkbenchWizardState {
  name: string;
  purpose: string;
  queries: PickedQuery[];
  cohorts: { cohorts: PickedCohort[]; totalTags: string[] };
  users: PickedMember[];
  stepIndex: number;
  documents: PickedDocument[];
  isInitialised: boolean;
}

export const initialWorkbenchWizardState: WorkbenchWizardState = {
  name: '',
  purpose: '',
  queries: [],
  cohorts: { cohorts: [], totalTags: [] },
  users: [],
  stepIndex: 0,
  documents: [],
  isInitialised: false,
};

/** The wizard has four steps: Description, data, users, Review. */
export const LAST_STEP_INDEX = 3;

/** The signed-in user, who becomes the first OWNER of a new workbench. */
export type Creator = Omit<PickedMember, 'role'>;

/** The draft of an edit: the workbench as it is, with its released data and members. */
export function draftOf(workbench: Workbench): WorkbenchWizardState {
  return {
    name: workbench.name,
    purpose: workbench.purpose,
    queries: workbench.queries.map((query) => ({ id: query.id, sourceId: query.source_query_id, name: query.name })),
    cohorts: {
      cohorts: workbench.cohorts.map((cohort) => ({
        id: cohort.id,
        name: cohort.name,
        tags: cohort.tags,
        personCountDisplay: cohort.person_count_display,
        version: cohort.version,
        releasedVersion: cohort.version,
        releasedCountDisplay: cohort.person_count_display,
        ...(cohort.latest_version > cohort.version
          ? {
              newer: {
                version: cohort.latest_version,
                personCountDisplay: cohort.latest_person_count_display ?? '?',
                ...(cohort.latest_releasable ? {} : { notReleasable: NEWER_NOT_RELEASABLE }),
              },
            }
          : {}),
      })),
      totalTags: [],
    },
    users: workbench.members.map((member) => ({ id: member.id, email: member.email, name: member.name, role: member.role })),
    stepIndex: 0,
    documents: workbench.documents.map((document) => ({ id: document.id, sourceId: document.source_document_id, name: document.name, sizeBytes: document.size_bytes })),
    isInitialised: true,
  };
}

/** Why a newer published version cannot be moved to now. */
export const NEWER_NOT_RELEASABLE =
  'it was taken from data no longer served (the warehouse was reloaded), or the cohort is no longer published: a data steward can re-run and publish it';

/** Whether a picked query or document stands for this original (picked now, or copied in before). */
const isFrom = (originalId: string) => (item: { id: string; sourceId: string | null }) => item.id === originalId || item.sourceId === originalId;

export const workbenchWizardSlice = createSlice({
  name: 'workbenchWizard',
  initialState: initialWorkbenchWizardState,
  reducers: {
    /** A new workbench: an empty draft whose only member is its creator, as OWNER. */
    creationStarted(_state, action: PayloadAction<Creator>) {
      return { ...initialWorkbenchWizardState, users: [{ ...action.payload, role: 'OWNER' }], isInitialised: true };
    },
    /** An edit: the draft starts as the workbench is. */
    editStarted(_state, action: PayloadAction<Workbench>) {
      return draftOf(action.payload);
    },
    /** A draft kept in the browser's session (a reload mid-way) comes back as it was. */
    draftRestored(_state, action: PayloadAction<WorkbenchWizardState>) {
      return action.payload;
    },
    /** Done or given up: nothing is kept. */
    wizardReset() {
      return initialWorkbenchWizardState;
    },
    nameChanged(state, action: PayloadAction<string>) {
      state.name = action.payload;
    },
    purposeChanged(state, action: PayloadAction<string>) {
      state.purpose = action.payload;
    },
    stepChanged(state, action: PayloadAction<number>) {
      state.stepIndex = Math.min(Math.max(action.payload, 0), LAST_STEP_INDEX);
    },
    /** Adds or removes a saved query, named by its original's id. */
    queryToggled(state, action: PayloadAction<{ id: string; name: string; picked: boolean }>) {
      const { id, name, picked } = action.payload;
      state.queries = state.queries.filter((query) => !isFrom(id)(query));
      if (picked) state.queries.push({ id, sourceId: id, name });
    },
    /** Removes a query by the id the draft holds (a copy whose original is gone, for one). */
    queryRemoved(state, action: PayloadAction<string>) {
      state.queries = state.queries.filter((query) => query.id !== action.payload);
    },
    /** Picks (with the version it would release: the published one) or drops a cohort. */
    cohortToggled(state, action: PayloadAction<{ cohort: PickedCohort; picked: boolean }>) {
      const { cohort, picked } = action.payload;
      const kept = state.cohorts.cohorts.find((item) => item.id === cohort.id);
      state.cohorts.cohorts = state.cohorts.cohorts.filter((item) => item.id !== cohort.id);
      // Picking again a cohort that was already released keeps its pinned version.
      if (picked) state.cohorts.cohorts.push(kept ?? { ...cohort });
    },
    /** A released cohort moves to its newer published version ("Update to version N"), or back to the one released. */
    cohortVersionChosen(state, action: PayloadAction<{ id: string; toNewer: boolean }>) {
      const cohort = state.cohorts.cohorts.find((item) => item.id === action.payload.id);
      if (!cohort?.newer || cohort.releasedVersion === undefined) return;
      if (action.payload.toNewer) {
        cohort.version = cohort.newer.version;
        cohort.personCountDisplay = cohort.newer.personCountDisplay;
      } else if (cohort.version !== cohort.releasedVersion) {
        // Back to what is released: its count is kept under `released`.
        cohort.version = cohort.releasedVersion;
        cohort.personCountDisplay = cohort.releasedCountDisplay ?? cohort.personCountDisplay;
      }
    },
    /** Every tag in use on the published cohorts, for the tag filter. */
    cohortTagsLoaded(state, action: PayloadAction<string[]>) {
      state.cohorts.totalTags = action.payload;
    },
    documentToggled(state, action: PayloadAction<{ id: string; name: string; sizeBytes: number; picked: boolean }>) {
      const { id, name, sizeBytes, picked } = action.payload;
      state.documents = state.documents.filter((document) => !isFrom(id)(document));
      if (picked) state.documents.push({ id, sourceId: id, name, sizeBytes });
    },
    documentRemoved(state, action: PayloadAction<string>) {
      state.documents = state.documents.filter((document) => document.id !== action.payload);
    },
    /** Adds a member, or changes the role of one already in. */
    memberAdded(state, action: PayloadAction<PickedMember>) {
      const existing = state.users.find((user) => user.id === action.payload.id);
      if (existing) existing.role = action.payload.role;
      else state.users.push(action.payload);
    },
    memberRoleChanged(state, action: PayloadAction<{ id: string; role: WorkbenchMemberRole }>) {
      const member = state.users.find((user) => user.id === action.payload.id);
      if (member) member.role = action.payload.role;
    },
    memberRemoved(state, action: PayloadAction<string>) {
      state.users = state.users.filter((user) => user.id !== action.payload);
    },
  },
  selectors: {
    selectWorkbenchWizard: (state) => state,
  },
});

export const {
  creationStarted,
  editStarted,
  draftRestored,
  wizardReset,
  nameChanged,
  purposeChanged,
  stepChanged,
  queryToggled,
  queryRemoved,
  cohortToggled,
  cohortVersionChosen,
  cohortTagsLoaded,
  documentToggled,
  documentRemoved,
  memberAdded,
  memberRoleChanged,
  memberRemoved,
} = workbenchWizardSlice.actions;
export const { selectWorkbenchWizard } = workbenchWizardSlice.selectors;
