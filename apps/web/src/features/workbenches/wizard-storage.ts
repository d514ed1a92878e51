import type { WorkbenchWizardState } from './slice';

/** Which workbench a draft is for: a new one, or an edit of one based on a version of it. */
export type WizardTarget = { mode: 'create' } | { mode: 'edit'; workbenchId: string; version: number };

interface StoredDraft {
  target: WizardTarget;
  draft: WorkbenchWizardState;
}

/** Session storage keeps the draft through a reload of the tab, and drops it with the tab. */
export const WIZARD_STORAGE_KEY = 'hdp.workbench-wizard';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    // Storage can be switched off; the wizard then works without surviving a reload.
    return null;
  }
}

const sameWorkbench = (a: WizardTarget, b: WizardTarget) =>
  a.mode === b.mode && (a.mode === 'create' || (b.mode === 'edit' && a.workbenchId === b.workbenchId));

/** Keeps the draft of this target. */
export function saveDraft(target: WizardTarget, draft: WorkbenchWizardState): void {
  try {
    storage()?.setItem(WIZARD_STORAGE_KEY, JSON.stringify({ target, draft } satisfies StoredDraft));
  } catch {
    // A full or blocked storage loses the reload safety net only.
  }
}

/**
 * The kept draft for this wizard (a new workbench, or the same workbench being edited), with the
 * target it was saved for, so an edit keeps the version it was based on; null when there is none.
 */
export function loadDraft(wanted: WizardTarget): StoredDraft | null {
  const raw = storage()?.getItem(WIZARD_STORAGE_KEY);
  if (!raw) return null;
  try {
    const stored = JSON.parse(raw) as Partial<StoredDraft>;
    if (!stored.target || !stored.draft?.isInitialised || !sameWorkbench(stored.target, wanted)) return null;
    if (!Array.isArray(stored.draft.users) || !Array.isArray(stored.draft.cohorts?.cohorts)) return null;
    return stored as StoredDraft;
  } catch {
    return null;
  }
}

/** Forgets the kept draft (after a submit, or when the user starts over). */
export function clearDraft(): void {
  try {
    storage()?.removeItem(WIZARD_STORAGE_KEY);
  } catch {
    // Nothing to forget.
  }
}

/** Edits refused because someone else changed the workbench first: kept to be applied again after the refresh. */
export const UNSAVED_EDITS_KEY = 'hdp.workbench-wizard.unsaved';

export function keepUnsavedEdits(workbenchId: string, draft: WorkbenchWizardState): void {
  try {
    storage()?.setItem(UNSAVED_EDITS_KEY, JSON.stringify({ workbenchId, draft }));
  } catch {
    // Without storage the edits are lost with the refresh, as before.
  }
}

/** The kept edits of this workbench, or null. */
export function unsavedEdits(workbenchId: string): WorkbenchWizardState | null {
  try {
    const stored = JSON.parse(storage()?.getItem(UNSAVED_EDITS_KEY) ?? 'null') as { workbenchId?: string; draft?: WorkbenchWizardState } | null;
    return stored?.workbenchId === workbenchId && stored.draft?.isInitialised && Array.isArray(stored.draft.users) ? stored.draft : null;
  } catch {
    return null;
  }
}

export function forgetUnsavedEdits(): void {
  try {
    storage()?.removeItem(UNSAVED_EDITS_KEY);
  } catch {
    // Nothing to forget.
  }
}
