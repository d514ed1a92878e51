import { useRouter } from 'next/router';
import type { QueryResult } from '@hdp/contract';
import { Alert } from 'antd';
import { showToast } from '@/lib/errors/notifier';
import { useCreateCohortMutation } from '../api/create-cohort';
import type { CohortFormValues } from '../cohort-form';
import { CohortFormDialog } from './cohort-form-dialog';

export interface CreateCohortDialogProps {
  open: boolean;
  /** The successful execution of a saved query whose persons become the cohort. */
  executionId: string;
  queryName: string;
  result: Pick<QueryResult, 'person_count_display'> & Partial<Pick<QueryResult, 'person_count' | 'suppression_threshold'>>;
  onClose: () => void;
}

/**
 * Makes a draft cohort from a run of a saved query (name, description, tags), then opens it.
 * A refusal (the run is gone, or the data was reloaded since) is told by the error catalogue
 * ('Cohort Creation Error.' with the API's reason) and the dialog stays open.
 */
export default function CreateCohortDialog({ open, executionId, queryName, result, onClose }: CreateCohortDialogProps) {
  const router = useRouter();
  const [createCohort, creating] = useCreateCohortMutation();
  const small = result.person_count === null;
  const threshold = result.suppression_threshold ?? 20;
  const submit = async (values: CohortFormValues) => {
    try {
      const cohort = await createCohort({ ...values, executionId }).unwrap();
      onClose();
      if (cohort.person_count === null) {
        showToast({
          type: 'warning',
          title: 'Cohort created below the threshold',
          description: `${cohort.name} holds fewer than ${cohort.result.suppression_threshold} persons: it is kept as a draft, but a data steward cannot publish it.`,
        });
      } else {
        showToast({ type: 'success', title: 'Cohort created', description: `${cohort.name}: a draft until a data steward publishes it.` });
      }
      await router.push(`/cohorts/${cohort.id}`);
    } catch {
      // The error catalogue has told the user.
    }
  };
  return (
    <CohortFormDialog
      open={open}
      title="Create a cohort"
      okText="Create cohort"
      initial={{ name: queryName, description: '', tags: [] }}
      busy={creating.isLoading}
      intro={
        <>
          <p style={{ margin: 0 }}>
            The persons of this run of <strong>{queryName}</strong> ({result.person_count_display}) become a draft cohort. A data steward can then publish it.
          </p>
          {small ? (
            <Alert
              type="warning"
              showIcon
              style={{ marginTop: 12 }}
              title="Below the suppression threshold"
              description={`This result holds fewer than ${threshold} persons. The cohort can be made and re-run on newer data, but it cannot be published while it stays this small: publishing it could identify people.`}
            />
          ) : null}
        </>
      }
      onSubmit={(values) => void submit(values)}
      onCancel={onClose}
    />
  );
}
