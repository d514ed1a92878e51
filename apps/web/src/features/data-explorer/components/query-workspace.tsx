import { useState } from 'react';
import dynamic from 'next/dynamic';
import { Alert, Button, Flex, Popconfirm, Space, Spin } from 'antd';
import { can } from '@hdp/contract/permissions';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { useGetMeQuery } from '@/features/users/api/get-me';
import { useGetDataExplorerSchemaQuery } from '../api/explorer-schema';
import { useCreateQueryMutation, useDeleteQueryMutation, useUpdateQueryMutation } from '../api/queries';
import { useQueryRun } from '../hooks/use-query-run';
import { newQueryStarted, queryEditorToggled, queryRenamed, querySaved, selectDataExplorer } from '../slice';
import { countRules, withoutIds } from '../query-tree';
import { cohortFromRun } from '../cohort-from-run';
import { CreateCohortButton } from './create-cohort-button';
import { QueryNameDialog } from './query-name-dialog';
import { QueryResults } from '@/components/results/query-results';
import { LoadingStatus } from '@/components/loading-status';

const QueryEditor = dynamic(() => import('./query-editor').then((m) => m.QueryEditor), {
  ssr: false,
  loading: () => <LoadingStatus label="Loading the query builder" />,
});

const PANEL = { background: '#ffffff', border: '1px solid #e5e8ec', borderRadius: 8, padding: 24 } as const;
const STATUS_TEXT = { PENDING: 'Queued', RUNNING: 'Running', SUCCEEDED: 'Done', FAILED: 'Failed' } as const;

type Dialog = null | 'save' | 'saveAs' | 'rename';

/** The query being edited: its name and actions, the builder, the run and its results. */
export function QueryWorkspace({ onStartOver }: { onStartOver?: () => void }) {
  const dispatch = useAppDispatch();
  const { data: me } = useGetMeQuery();
  const state = useAppSelector(selectDataExplorer);
  const { queryId, queryName, query, isQueryEdited, isAnonymousQuery, isShowQueryEditor } = state;
  const schema = useGetDataExplorerSchemaQuery();
  const { run, isRunning, status, result, error, executionId } = useQueryRun();
  const [createQuery, creating] = useCreateQueryMutation();
  const [updateQuery, updating] = useUpdateQueryMutation();
  const [deleteQuery, deleting] = useDeleteQueryMutation();
  const [dialog, setDialog] = useState<Dialog>(null);

  const allowed = (permission: Parameters<typeof can>[1]) => can(me ?? null, permission);
  const hasRules = countRules(query) > 0;

  const create = async (name: string) => {
    const saved = await createQuery({ name, query: withoutIds(query) }).unwrap();
    dispatch(querySaved({ id: saved.id, name: saved.name }));
  };

  const onSave = () => {
    if (isAnonymousQuery || !queryId) return setDialog('save');
    void updateQuery({ queryId, query: withoutIds(query) })
      .unwrap()
      .then((saved) => dispatch(querySaved({ id: saved.id, name: saved.name })))
      .catch(() => undefined);
  };

  const onDialogSubmit = (name: string) => {
    const done = () => setDialog(null);
    if (dialog === 'rename' && queryId) {
      void updateQuery({ queryId, name })
        .unwrap()
        .then((saved) => {
          dispatch(queryRenamed(saved.name));
          done();
        })
        .catch(() => undefined);
    } else {
      create(name).then(done, () => undefined);
    }
  };

  const onDelete = () => {
    if (!queryId) return;
    void deleteQuery(queryId)
      .unwrap()
      .then(() => {
        dispatch(newQueryStarted());
        onStartOver?.();
      })
      .catch(() => undefined);
  };

  return (
    <section aria-labelledby="query-heading" style={{ ...PANEL, marginBottom: 16 }}>
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 16 }}>
        <Space size={8} align="center">
          <h2 id="query-heading" style={{ fontSize: 18, fontWeight: 600, margin: 0 }}>
            {queryName || 'New query'}
          </h2>
          {isQueryEdited ? (
            <span className="edited-marker" role="status" style={{ color: '#8a4b00', fontSize: 13, border: '1px solid #d48806', borderRadius: 4, padding: '0 6px' }}>
              Edited
            </span>
          ) : null}
          {!queryId ? <span style={{ color: '#5b6470', fontSize: 13 }}>(not saved)</span> : null}
        </Space>
        <Space wrap>
          <Button type="primary" onClick={run} loading={isRunning} disabled={!hasRules || !allowed('queries:execute')}>
            Run
          </Button>
          <Button onClick={onSave} loading={updating.isLoading && dialog === null} disabled={!allowed(queryId ? 'queries:update' : 'queries:create') || (!isQueryEdited && !!queryId)}>
            Save
          </Button>
          <Button onClick={() => setDialog('saveAs')} disabled={!hasRules || !allowed('queries:create')}>
            Save as
          </Button>
          <Button onClick={() => setDialog('rename')} disabled={!queryId || !allowed('queries:update')}>
            Rename
          </Button>
          <Popconfirm title="Delete this query?" description="Its runs are deleted too." okText="Delete" okButtonProps={{ danger: true }} onConfirm={onDelete}>
            <Button danger disabled={!queryId || !allowed('queries:delete')} loading={deleting.isLoading}>
              Delete
            </Button>
          </Popconfirm>
          <Button
            onClick={() => {
              dispatch(newQueryStarted());
              onStartOver?.();
            }}
          >
            New query
          </Button>
          <Button type="link" onClick={() => dispatch(queryEditorToggled())} aria-expanded={isShowQueryEditor} aria-controls="query-editor">
            {isShowQueryEditor ? 'Hide the editor' : 'Show the editor'}
          </Button>
        </Space>
      </Flex>

      <div id="query-editor" hidden={!isShowQueryEditor}>
        {schema.data ? (
          schema.data.warehouse.loaded ? (
            <QueryEditor tables={schema.data.tableSchema} />
          ) : (
            <Alert type="info" showIcon title="No data is loaded yet." description="Queries can be built once the warehouse holds a dataset." />
          )
        ) : (
          <LoadingStatus label="Loading the fields" />
        )}
      </div>

      <div aria-live="polite" style={{ marginTop: 16 }}>
        {isRunning ? (
          <Flex align="center" gap={12} role="status" className="run-progress">
            <Spin />
            <span>{status ? `${STATUS_TEXT[status]}…` : 'Running the query…'}</span>
          </Flex>
        ) : null}
        {!isRunning && error ? <Alert type="error" showIcon title="The run failed." description={error} /> : null}
      </div>

      {result && !isRunning ? (
        <section aria-labelledby="results-heading" style={{ marginTop: 16 }}>
          <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 8 }}>
            <h2 id="results-heading" style={{ fontSize: 16, fontWeight: 600, margin: 0 }}>
              Results
            </h2>
            {allowed('cohorts:create') ? (
              <CreateCohortButton source={cohortFromRun({ isAnonymousQuery, isQueryEdited, executionId })} queryName={queryName} result={result} />
            ) : null}
          </Flex>
          <QueryResults result={result} />
        </section>
      ) : null}

      <QueryNameDialog
        open={dialog !== null}
        title={dialog === 'rename' ? 'Rename the query' : dialog === 'saveAs' ? 'Save as a new query' : 'Save the query'}
        okText={dialog === 'rename' ? 'Rename' : 'Save'}
        initialName={dialog === 'saveAs' ? (queryName ? `${queryName} (copy)` : '') : queryName}
        busy={creating.isLoading || updating.isLoading}
        onSubmit={onDialogSubmit}
        onCancel={() => setDialog(null)}
      />
    </section>
  );
}
