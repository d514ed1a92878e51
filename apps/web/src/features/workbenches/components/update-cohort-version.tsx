import { Button } from 'antd';
import type { Workbench, WorkbenchCohort } from '@hdp/contract';
import { useAppDispatch } from '@/app/hooks';
import { showToast } from '@/lib/errors/notifier';
import { useUpdateWorkbenchMutation } from '../api/update-workbench';
import { refusalsReceived } from '../refusals-slice';
import { draftOf } from '../slice';
import { toUpdateBody } from '../wizard-rules';

/**
 * "Update to version N": moves one released cohort to its newer published version in one action.
 * It saves the workbench as it is with only that cohort re-pinned (based on the version shown, so a
 * change made meanwhile is refused, not overwritten); the API then removes the old files and
 * releases the new version, which the table follows as it provisions.
 */
export function UpdateCohortVersion({ workbench, cohort }: { workbench: Workbench; cohort: WorkbenchCohort }) {
  const dispatch = useAppDispatch();
  const [updateWorkbench, { isLoading }] = useUpdateWorkbenchMutation();
  const update = async () => {
    const draft = draftOf(workbench);
    draft.cohorts.cohorts = draft.cohorts.cohorts.map((item) => (item.id === cohort.id ? { ...item, version: cohort.latest_version } : item));
    try {
      await updateWorkbench({ workbenchId: workbench.id, ...toUpdateBody(draft, workbench.version) }).unwrap();
      showToast({ type: 'success', title: `${cohort.name}: version ${cohort.latest_version} is being released` });
    } catch (error) {
      const failure = error as { status?: unknown; data?: { refused?: { kind: 'cohort'; id: string; reason: string }[] } };
      if (failure.status === 418 && Array.isArray(failure.data?.refused)) {
        dispatch(refusalsReceived({ workbenchId: workbench.id, refused: failure.data.refused.map((refusal) => ({ ...refusal, name: refusal.kind === 'cohort' ? cohort.name : refusal.id })) }));
      }
      // Anything else is shown by the error catalogue.
    }
  };
  return (
    <Button size="small" type="primary" loading={isLoading} onClick={() => void update()} aria-label={`Update ${cohort.name} to version ${cohort.latest_version}`}>
      Update to version {cohort.latest_version}
    </Button>
  );
}
