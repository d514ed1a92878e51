import { useState } from 'react';
import { EditOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Flex, Popconfirm, Tooltip } from 'antd';
import type { CohortDetail } from '@hdp/contract';
import { COHORT_TRANSITIONS, type CohortTransition } from '@hdp/contract/cohort-lifecycle';
import { showToast } from '@/lib/errors/notifier';
import { useRefreshCohortMutation } from '../api/refresh-cohort';
import { useUpdateCohortMutation } from '../api/update-cohort';
import type { CohortAbilities } from '../cohort-abilities';
import type { CohortFormValues } from '../cohort-form';
import { TRANSITION_TEXT } from '../labels';
import { CohortFormDialog } from './cohort-form-dialog';

const VISUALLY_HIDDEN = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

/**
 * The actions the viewer may take on a cohort: edit its name, description and tags; refresh it
 * (a new version from the source query); and, for data stewards and administrators, the status
 * changes COHORT_TRANSITIONS allows from its state. Each change asks for confirmation first;
 * refusals are told by the error catalogue ('Cohort Publication Error.' with the API's reason).
 */
export function CohortActions({ cohort, abilities }: { cohort: CohortDetail; abilities: CohortAbilities }) {
  const [updateCohort, updating] = useUpdateCohortMutation();
  const [refreshCohort, refreshing] = useRefreshCohortMutation();
  const [pending, setPending] = useState<CohortTransition | null>(null);
  const [editing, setEditing] = useState(false);

  const changeStatus = async (transition: CohortTransition) => {
    setPending(transition);
    try {
      await updateCohort({ cohortId: cohort.id, status: COHORT_TRANSITIONS[transition].to }).unwrap();
      showToast({ type: 'success', title: TRANSITION_TEXT[transition].done, description: cohort.name });
    } catch {
      // The error catalogue has told the user.
    } finally {
      setPending(null);
    }
  };

  const refresh = async () => {
    try {
      const refreshed = await refreshCohort(cohort.id).unwrap();
      showToast({ type: 'success', title: 'Cohort refreshed', description: `Version ${refreshed.version}: ${refreshed.person_count_display} persons.` });
    } catch {
      // The error catalogue has told the user.
    }
  };

  const save = async (values: CohortFormValues) => {
    try {
      await updateCohort({ cohortId: cohort.id, ...values }).unwrap();
      setEditing(false);
      showToast({ type: 'success', title: 'Cohort saved', description: values.name });
    } catch {
      // The error catalogue has told the user; the dialog stays open.
    }
  };

  if (!abilities.edit && !abilities.refresh && abilities.transitions.length === 0) return null;
  return (
    <>
      <Flex wrap gap={8}>
        {abilities.edit ? (
          <Button icon={<EditOutlined aria-hidden />} onClick={() => setEditing(true)}>
            Edit
          </Button>
        ) : null}
        {abilities.refresh ? (
          abilities.refreshRefusal ? (
            <>
              <Tooltip title={abilities.refreshRefusal}>
                <Button icon={<ReloadOutlined aria-hidden />} disabled aria-describedby="cohort-refresh-refusal">
                  Refresh
                </Button>
              </Tooltip>
              <span id="cohort-refresh-refusal" style={VISUALLY_HIDDEN}>
                {abilities.refreshRefusal}
              </span>
            </>
          ) : (
            <Popconfirm
              title="Refresh this cohort?"
              description={`Its source query runs again on the current data; the persons become version ${cohort.version + 1}.`}
              okText="Refresh"
              onConfirm={refresh}
            >
              <Button icon={<ReloadOutlined aria-hidden />} loading={refreshing.isLoading}>
                Refresh
              </Button>
            </Popconfirm>
          )
        ) : null}
        {abilities.transitions.map((transition) => {
          const text = TRANSITION_TEXT[transition];
          return (
            <Popconfirm
              key={transition}
              title={text.confirm}
              description={text.description}
              okText={text.label}
              okButtonProps={{ danger: text.danger }}
              onConfirm={() => changeStatus(transition)}
            >
              <Button type={transition === 'publish' ? 'primary' : 'default'} danger={text.danger} loading={pending === transition && updating.isLoading}>
                {text.label}
              </Button>
            </Popconfirm>
          );
        })}
      </Flex>
      <CohortFormDialog
        open={editing}
        title="Edit the cohort"
        okText="Save"
        initial={{ name: cohort.name, description: cohort.description, tags: cohort.tags }}
        busy={updating.isLoading && pending === null}
        onSubmit={(values) => void save(values)}
        onCancel={() => setEditing(false)}
      />
    </>
  );
}
