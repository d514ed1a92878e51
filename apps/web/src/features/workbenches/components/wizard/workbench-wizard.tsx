import { useEffect, useRef, useState } from 'react';
import { useRouter } from 'next/router';
import { Button, Flex, Steps } from 'antd';
import { LoadingOutlined } from '@ant-design/icons';
import type { Me, Workbench, WorkbenchSubmittedWithErrors } from '@hdp/contract';
import { useAppDispatch, useAppSelector, useAppStore } from '@/app/hooks';
import { detailInWords } from '@/lib/errors/error-catalogue';
import { showToast } from '@/lib/errors/notifier';
import { useCreateWorkbenchMutation } from '../../api/create-workbench';
import { useLazyListWorkbenchesQuery } from '../../api/list-workbenches';
import { useUpdateWorkbenchMutation } from '../../api/update-workbench';
import { refusalsReceived, type RefusedPart } from '../../refusals-slice';
import { creationStarted, draftOf, draftRestored, editStarted, selectWorkbenchWizard, stepChanged, wizardReset, type WorkbenchWizardState } from '../../slice';
import { clearDraft, forgetUnsavedEdits, keepUnsavedEdits, loadDraft, saveDraft, unsavedEdits, type WizardTarget } from '../../wizard-storage';
import { DATA_STEP, DESCRIPTION_STEP, REVIEW_STEP, STEP_TITLES, stepProblems, toCreateBody, toUpdateBody, USERS_STEP } from '../../wizard-rules';
import { DataStep } from './data-step';
import { DescriptionStep } from './description-step';
import { ReviewStep } from './review-step';
import { UsersStep } from './users-step';

export interface WorkbenchWizardProps {
  me: Me;
  /** The workbench to edit; absent to create one. */
  workbench?: Workbench;
}

/** The parts of a 418 answer the user picked, named as they picked them. */
function namedRefusals(answer: WorkbenchSubmittedWithErrors, draft: WorkbenchWizardState): RefusedPart[] {
  const names: Record<RefusedPart['kind'], Map<string, string>> = {
    cohort: new Map(draft.cohorts.cohorts.map((cohort) => [cohort.id, cohort.name])),
    query: new Map(draft.queries.map((query) => [query.id, query.name])),
    document: new Map(draft.documents.map((document) => [document.id, document.name])),
    user: new Map(draft.users.map((user) => [user.id, user.email])),
  };
  return answer.refused.map((refusal) => ({ ...refusal, name: names[refusal.kind]?.get(refusal.id) ?? refusal.id }));
}

const isSubmittedWithErrors = (error: unknown): error is { status: 418; data: WorkbenchSubmittedWithErrors } => {
  const failure = error as { status?: unknown; data?: { workbench?: { id?: unknown }; refused?: unknown } } | undefined;
  return failure?.status === 418 && typeof failure.data?.workbench?.id === 'string' && Array.isArray(failure.data.refused);
};

/** The API's refusal of a name already used (`name: you already have a workbench called "…"`), in words. */
const nameTakenIn = (error: unknown): string | null => {
  const failure = error as { status?: unknown; data?: { detail?: unknown } } | undefined;
  const detail = failure?.data?.detail;
  if (failure?.status !== 409 || typeof detail !== 'string' || !detail.startsWith('name:')) return null;
  const sentence = detail.replace(/^name: /, '');
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
};

/** What a kept, unsaved edit changed compared with the workbench as it is now. */
function unsavedChanges(edits: WorkbenchWizardState, now: WorkbenchWizardState): string[] {
  const ids = (items: readonly { id: string }[]) => items.map((item) => item.id).sort().join();
  const changes: string[] = [];
  if (edits.name.trim() !== now.name.trim()) changes.push(`the name “${edits.name.trim()}”`);
  if (edits.purpose.trim() !== now.purpose.trim()) changes.push('the research purpose');
  if (ids(edits.cohorts.cohorts) !== ids(now.cohorts.cohorts) || edits.cohorts.cohorts.some((c) => now.cohorts.cohorts.find((n) => n.id === c.id)?.version !== c.version)) changes.push('the cohorts');
  if (ids(edits.queries) !== ids(now.queries)) changes.push('the saved queries');
  if (ids(edits.documents) !== ids(now.documents)) changes.push('the documents');
  if (edits.users.map((u) => `${u.id}:${u.role}`).sort().join() !== now.users.map((u) => `${u.id}:${u.role}`).sort().join()) changes.push('the members');
  return changes;
}

/** A 409 other than a name already used (the detail names the field it refuses): the edit was based on an old version. */
const isStale = (error: unknown): boolean => {
  const failure = error as { status?: unknown; data?: { detail?: unknown } } | undefined;
  return failure?.status === 409 && !(typeof failure.data?.detail === 'string' && failure.data.detail.startsWith('name:'));
};

/**
 * Who changed the workbench and when, from the API's refusal of a stale edit, in plain words and
 * local time. The API's closing advice (make the edits again) is left out: the wizard keeps them.
 */
const staleInWords = (error: unknown): string => {
  const detail = (error as { data?: { detail?: unknown } } | undefined)?.data?.detail;
  if (typeof detail !== 'string' || detail.trim() === '') return 'This workbench was saved by someone else after you began editing it.';
  return detailInWords(detail).replace(/\s*Reload it and make your edits again\.?\s*$/, '');
};

/**
 * The create / edit wizard: Description, data, users, Review. The draft lives in the Redux slice and
 * is kept in the tab's session storage at every change, so a reload mid-way comes back to the same
 * step with the same choices; an edit also keeps the version it was based on, so a save after
 * someone else's change is refused (409) rather than overwriting it.
 */
export default function WorkbenchWizard({ me, workbench }: WorkbenchWizardProps) {
  const mode = workbench ? 'edit' : 'create';
  const titles = STEP_TITLES[mode];
  const router = useRouter();
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const draft = useAppSelector(selectWorkbenchWizard);
  const [target, setTarget] = useState<WizardTarget | null>(null);
  const [showProblems, setShowProblems] = useState(false);
  const [createWorkbench, creation] = useCreateWorkbenchMutation();
  const [updateWorkbench, update] = useUpdateWorkbenchMutation();
  const [checkName] = useLazyListWorkbenchesQuery();
  const [nameTaken, setNameTaken] = useState<string | null>(null);
  const [unsaved, setUnsaved] = useState<WorkbenchWizardState | null>(null);
  const [stale, setStale] = useState<string | null>(null);
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);

  // Once per opening: the kept draft of the same wizard comes back; otherwise a fresh one starts.
  useEffect(() => {
    const wanted: WizardTarget = workbench ? { mode: 'edit', workbenchId: workbench.id, version: workbench.version } : { mode: 'create' };
    const kept = loadDraft(wanted);
    if (kept) {
      dispatch(draftRestored(kept.draft));
      setTarget(kept.target);
    } else {
      if (workbench) dispatch(editStarted(workbench));
      else dispatch(creationStarted({ id: me.id, email: me.email, name: me.name }));
      setTarget(wanted);
      // Edits refused because someone else saved first: offered again on the workbench as it is now.
      const kept = workbench ? unsavedEdits(workbench.id) : null;
      if (kept && workbench && unsavedChanges(kept, draftOf(workbench)).length > 0) setUnsaved(kept);
      else forgetUnsavedEdits();
    }
    // The workbench refreshes while the wizard is open (polling, other tabs): only the first one counts.
  }, []);

  // Every change is kept, until the draft is submitted or given up.
  useEffect(() => {
    if (target && draft.isInitialised) saveDraft(target, draft);
  }, [target, draft]);

  // A new step: focus its heading, so keyboard and screen-reader users start at its top.
  useEffect(() => {
    if (moved.current) stepHeading.current?.focus();
  }, [draft.stepIndex]);

  if (!target || !draft.isInitialised) return null;

  const step = draft.stepIndex;
  const problems = stepProblems(draft, step);
  const submitting = creation.isLoading || update.isLoading;

  const goTo = (next: number) => {
    moved.current = true;
    setShowProblems(false);
    dispatch(stepChanged(next));
  };
  const next = async () => {
    if (problems.length > 0) {
      setShowProblems(true);
      return;
    }
    if (step === DESCRIPTION_STEP) {
      // The name must differ (ignoring capitals) from the user's other workbenches': asked here, on
      // the step that has the field, rather than refused at the end. The API checks again on save.
      const name = draft.name.trim();
      const found = await checkName({ skip: 0, limit: 20, search: name }).unwrap().catch(() => null);
      const same = found?.workbenches.find(
        (other) => other.my_role !== null && other.name.trim().toLowerCase() === name.toLowerCase() && other.id !== (target.mode === 'edit' ? target.workbenchId : undefined),
      );
      if (same) {
        setNameTaken(`You already have a workbench called “${same.name}”. Choose another name.`);
        return;
      }
      setNameTaken(null);
    }
    goTo(step + 1);
  };
  const finish = (workbenchId: string) => {
    clearDraft();
    dispatch(wizardReset());
    void router.push(`/workbenches/${workbenchId}`);
  };
  const submit = async () => {
    if (problems.length > 0) {
      setShowProblems(true);
      return;
    }
    const current = store.getState().workbenchWizard;
    try {
      const saved =
        target.mode === 'edit'
          ? await updateWorkbench({ workbenchId: target.workbenchId, ...toUpdateBody(current, target.version) }).unwrap()
          : await createWorkbench(toCreateBody(current)).unwrap();
      showToast({ type: 'success', title: target.mode === 'edit' ? 'Workbench saved' : 'Workbench created' });
      finish(saved.id);
    } catch (error) {
      if (isSubmittedWithErrors(error)) {
        // The rest was applied: the workbench shows what was left out (the toast says so too).
        dispatch(refusalsReceived({ workbenchId: error.data.workbench.id, refused: namedRefusals(error.data, current) }));
        finish(error.data.workbench.id);
      } else if (nameTakenIn(error)) {
        // The name is taken (a workbench made meanwhile): back to the name, marked with the reason.
        setNameTaken(nameTakenIn(error));
        goTo(DESCRIPTION_STEP);
      } else if (isStale(error) && target.mode === 'edit') {
        // Someone changed the workbench since this edit began: said beside the buttons (a toast
        // would cover them). The reload it offers must load their version, not bring this stale
        // draft back; the user's edits are kept apart, to be offered again on top of that version.
        keepUnsavedEdits(target.workbenchId, current);
        clearDraft();
        setStale(staleInWords(error));
      }
      // Every other refusal is shown by the error catalogue; the draft stays for another try.
    }
  };
  const cancel = () => {
    clearDraft();
    dispatch(wizardReset());
    void router.push(workbench ? `/workbenches/${workbench.id}` : '/workbenches');
  };

  let body;
  if (step === DESCRIPTION_STEP) body = <DescriptionStep showProblems={showProblems} nameTaken={nameTaken} onNameChange={() => setNameTaken(null)} />;
  else if (step === DATA_STEP) body = <DataStep me={me} />;
  else if (step === USERS_STEP) body = <UsersStep me={me} showProblems={showProblems} problems={problems} />;
  else body = <ReviewStep titles={titles} onGoTo={goTo} />;

  return (
    <>
      {unsaved && workbench ? (
        // Plain markup rather than antd's Alert: the wizard's first load stays within its budget.
        <section role="status" aria-label="Your earlier edits were not saved" style={{ border: '1px solid #ffe58f', background: '#fffbe6', borderRadius: 8, padding: '12px 16px', marginBottom: 16 }}>
          <p style={{ margin: '0 0 4px', fontWeight: 600 }}>Your earlier edits were not saved</p>
          <p style={{ margin: '0 0 8px' }}>
            {`Someone else saved this workbench first, so the wizard now shows their version. Your edits changed ${unsavedChanges(unsaved, draftOf(workbench)).join(', ')}.`}
          </p>
          <Flex gap={8} wrap>
            <Button
              size="small"
              type="primary"
              onClick={() => {
                dispatch(draftRestored({ ...unsaved, stepIndex: DESCRIPTION_STEP }));
                forgetUnsavedEdits();
                setUnsaved(null);
              }}
            >
              Apply my edits again
            </Button>
            <Button
              size="small"
              onClick={() => {
                forgetUnsavedEdits();
                setUnsaved(null);
              }}
            >
              Discard them
            </Button>
          </Flex>
        </section>
      ) : null}
      <Steps current={step} items={titles.map((title) => ({ title }))} style={{ marginBottom: 24 }} />
      <section aria-labelledby="wizard-step-heading">
        <h2 id="wizard-step-heading" ref={stepHeading} tabIndex={-1} style={{ fontSize: 18, fontWeight: 600, margin: '0 0 12px', outline: 'none' }}>
          {`Step ${step + 1} of ${titles.length}: ${titles[step]}`}
        </h2>
        {body}
        {showProblems && step === REVIEW_STEP && problems.length > 0 ? (
          <ul role="alert" style={{ color: '#cf1322', margin: '8px 0 0', paddingInlineStart: 20 }}>
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        ) : null}
      </section>
      {stale ? (
        // Plain markup rather than antd's Alert, as above; above the buttons, never over them.
        <section role="alert" aria-labelledby="wizard-stale-heading" style={{ border: '1px solid #ffccc7', background: '#fff2f0', borderRadius: 8, padding: '12px 16px', marginTop: 24 }}>
          <p id="wizard-stale-heading" style={{ margin: '0 0 4px', fontWeight: 600 }}>
            Someone else saved this workbench while you were editing it
          </p>
          <p style={{ margin: '0 0 4px' }}>{stale}</p>
          <p style={{ margin: '0 0 8px' }}>Your edits are kept. Load the saved version, and the wizard offers your edits again on top of it.</p>
          <Button size="small" type="primary" onClick={() => router.reload()}>
            Load the saved version
          </Button>
        </section>
      ) : null}
      <Flex justify="space-between" wrap gap={12} style={{ marginTop: 24, borderTop: '1px solid #f0f0f0', paddingTop: 16 }}>
        <Button onClick={cancel} disabled={submitting}>
          Cancel
        </Button>
        <Flex gap={12}>
          <Button onClick={() => goTo(step - 1)} disabled={step === DESCRIPTION_STEP || submitting}>
            Back
          </Button>
          {step < REVIEW_STEP ? (
            <Button type="primary" onClick={() => void next()}>
              Next
            </Button>
          ) : (
            // The spinner is drawn from `submitting` itself, not antd's `loading` (kept in the button's
            // own state): after a refusal for a stale edit it was seen to stay on, the button still
            // "loading" beside the refusal while nothing was being sent.
            <Button type="primary" icon={submitting ? <LoadingOutlined /> : undefined} disabled={stale !== null || submitting} onClick={() => void submit()}>
              {mode === 'edit' ? 'Save' : 'Create'}
            </Button>
          )}
        </Flex>
      </Flex>
    </>
  );
}
