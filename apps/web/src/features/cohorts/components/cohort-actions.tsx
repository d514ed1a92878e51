import { useState, type ReactNode } from 'react';
import { EditOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Flex, Popconfirm, Tooltip } from 'antd';
import type { CohortDetail } from '@hdp/contract';
import { COHORT_TRANSITIONS, type CohortTransition } from '@hdp/contract/cohort-lifecycle';
import { showToast } from '@/lib/errors/notifier';
import { useRefreshCohortMutation } from '../api/refresh-cohort';
import { useUpdateCohortMutation } from '../api/update-cohort';
import type { CohortAbilities } from '../cohort-abilities';
import type { CohortFormValues } from '../cohort-form';
import { publishRefusal } from '../cohort-review';
import { RERUN_LABEL, TRANSITION_TEXT } from '../labels';
import { CohortFormDialog } from './cohort-form-dialog';
import { PublishChecklist } from './publish-checklist';

const VISUALLY_HIDDEN = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

/** A disabled button with its reason as a tooltip and as the button's accessible description. */
function Refused({ id, reason, icon, label }: { id: string; reason: string; icon?: ReactNode; label: string }) {
  return (
    <>
      <Tooltip title={reason}>
        <Button icon={icon} disabled aria-describedby={id}>
          {label}
        </Button>
      </Tooltip>
      <span id={id} style={VISUALLY_HIDDEN}>
        {reason}
      </span>
    </>
  );
}

/**
 * The actions the viewer may take on a cohort: edit its name, description and tags; re-run it
 * (a new version from the source query, which awaits review when the cohort is published); and,
 * for data stewards and administrators, publishing a version after its checklist and the other
 * status changes COHORT_TRANSITIONS allows. Publish is disabled with the reason when the version
 * is below the suppression threshold. Refusals are told by the error catalogue.
 */
export function CohortActions({ cohort, abilities }: { cohort: CohortDetail; abilities: CohortAbilities }) {
  const [updateCohort, updating] = useUpdateCohortMutation();
  const [refreshCohort, refreshing] = useRefreshCohortMutation();
  const [pending, setPending] = useState<CohortTransition | null>(null);
  const [editing, setEditing] = useState(false);
  const [checking, setChecking] = useState(false);
  const refusal = publishRefusal(cohort, cohort.result.suppression_threshold);

  const publish = async (version: number) => {
    setPending('publish');
    try {
      await updateCohort({ cohortId: cohort.id, ...(cohort.status === 'PUBLISHED' ? {} : { status: 'PUBLISHED' as const }), published_version: version }).unwrap();
      setChecking(false);
      showToast({ type: 'success', title: TRANSITION_TEXT.publish.done, description: `${cohort.name}, version ${version}` });
    } catch {
      // The error catalogue has told the user (a stale version names the newer one).
    } finally {
      setPending(null);
    }
  };

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
      const review = refreshed.published_version !== null && refreshed.published_version < refreshed.version ? ` It awaits a data steward's review; researchers keep version ${refreshed.published_version}.` : '';
      showToast({ type: 'success', title: 'New version made', description: `Version ${refreshed.version}: ${refreshed.person_count_display} persons.${review}` });
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
  const publishButton = (label: string) =>
    refusal ? (
      <Refused key="publish" id="cohort-publish-refusal" reason={refusal} label={label} />
    ) : (
      <Button key="publish" type="primary" onClick={() => setChecking(true)} loading={pending === 'publish' && updating.isLoading}>
        {label}
      </Button>
    );
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
            <Refused id="cohort-refresh-refusal" reason={abilities.refreshRefusal} icon={<ReloadOutlined aria-hidden />} label={RERUN_LABEL} />
          ) : (
            <Popconfirm
              title="Re-run the source query on the current data?"
              description={
                cohort.status === 'PUBLISHED'
                  ? `Its persons become version ${cohort.version + 1}, which awaits a data steward's review; researchers keep the published version until then.`
                  : `Its persons become version ${cohort.version + 1}; earlier versions are kept.`
              }
              okText="Re-run"
              placement="bottomRight"
              onConfirm={refresh}
            >
              <Button icon={<ReloadOutlined aria-hidden />} loading={refreshing.isLoading}>
                {RERUN_LABEL}
              </Button>
            </Popconfirm>
          )
        ) : null}
        {abilities.reviewVersion !== null ? publishButton(`Publish version ${abilities.reviewVersion}`) : null}
        {abilities.transitions.map((transition) => {
          if (transition === 'publish') return publishButton(TRANSITION_TEXT.publish.label);
          const text = TRANSITION_TEXT[transition];
          return (
            <Popconfirm
              key={transition}
              title={text.confirm}
              description={text.description}
              okText={text.label}
              okButtonProps={{ danger: text.danger }}
              placement="bottomRight"
              onConfirm={() => changeStatus(transition)}
            >
              <Button type="default" danger={text.danger} loading={pending === transition && updating.isLoading}>
                {text.label}
              </Button>
            </Popconfirm>
          );
        })}
      </Flex>
      {checking ? (
        <PublishChecklist cohort={cohort} open busy={pending === 'publish'} onPublish={(version) => void publish(version)} onCancel={() => setChecking(false)} />
      ) : null}
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
