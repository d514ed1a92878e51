import { useMemo, useRef, useState } from 'react';
import dynamic from 'next/dynamic';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { LoadingOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Popconfirm, Space, Spin } from 'antd';
import { can } from '@hdp/contract/permissions';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { useGetMeQuery } from '@/features/users/api/get-me';
import { useGetDataExplorerSchemaQuery } from '../api/explorer-schema';
import { useCreateQueryMutation, useDeleteQueryMutation, useUpdateQueryMutation } from '../api/queries';
import { useQueryRun } from '../hooks/use-query-run';
import { newQueryStarted, queryEditorToggled, queryRenamed, querySaved, ruleProblemsShown, selectDataExplorer, serverRuleProblemFound } from '../slice';
import { countRules, withoutIds } from '../query-tree';
import { cohortFromRun, type CohortFromRun } from '../cohort-from-run';
import { problemFromServerDetail, validateQuery, type RuleProblem } from '../rule-validation';
import { CreateCohortButton } from './create-cohort-button';
import { CriteriaSummary } from './criteria-summary';
import { CohortDefinitionSection } from '../cohort-definition/cohort-definition-section';
import { QueryNameDialog } from './query-name-dialog';
import { QueryResults } from '@/components/results/query-results';
import { LoadingStatus } from '@/components/loading-status';
import { showToast } from '@/lib/errors/notifier';

const QueryEditor = dynamic(() => import('./query-editor').then((m) => m.QueryEditor), {
  ssr: false,
  loading: () => <LoadingStatus label="Loading the query builder" />,
});

// The cohort definition's editor loads only for a query that has a definition (added, or opened
// with one): the simple builder alone never downloads it. The attrition loads with a result that has one.
const CohortDefinitionEditor = dynamic(() => import('../cohort-definition/cohort-definition-builder').then((m) => m.CohortDefinitionEditor), {
  ssr: false,
  loading: () => <LoadingStatus label="Loading the cohort definition builder" />,
});
const AttritionView = dynamic(() => import('../cohort-definition/attrition-view').then((m) => m.AttritionView), { ssr: false });

const PANEL = { background: '#ffffff', border: '1px solid #e5e8ec', borderRadius: 8, padding: 24 } as const;
const STATUS_TEXT = { PENDING: 'Queued', RUNNING: 'Running', SUCCEEDED: 'Done', FAILED: 'Failed' } as const;

type Dialog = null | 'save' | 'saveAs' | 'rename';

export const NOT_RUN_YET = 'Query has not been executed yet. Run it to see how many persons match.';

/** "14:05": the local time a result was counted. */
export function clockTime(iso: string): string {
  const at = new Date(iso);
  return `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
}

/** The server's detail of a failed call, if any. */
function detailOf(error: unknown): string | undefined {
  const data = (error as FetchBaseQueryError | undefined)?.data;
  return data && typeof data === 'object' && typeof (data as { detail?: unknown }).detail === 'string' ? (data as { detail: string }).detail : undefined;
}

/** The list of invalid rules, each named, above the builder. */
function RuleProblems({ problems }: { problems: readonly RuleProblem[] }) {
  return (
    <Alert
      type="error"
      showIcon
      className="rule-problems"
      role="alert"
      title={problems.length === 1 ? 'Fix this rule before running or saving the query:' : `Fix these ${problems.length} rules before running or saving the query:`}
      description={
        <ul style={{ margin: 0, paddingLeft: 20 }}>
          {problems.map((p) => (
            <li key={p.path.join('.')}>
              {p.name}: {p.message}
            </li>
          ))}
        </ul>
      }
      style={{ marginBottom: 12 }}
    />
  );
}

/** The query being edited: its name and actions, the builder, the run and its results. */
export function QueryWorkspace({ onStartOver }: { onStartOver?: () => void }) {
  const dispatch = useAppDispatch();
  const { data: me } = useGetMeQuery();
  const state = useAppSelector(selectDataExplorer);
  const { queryId, queryName, query, isQueryEdited, isAnonymousQuery, isShowQueryEditor, isShowRuleProblems, serverRuleProblem } = state;
  const schema = useGetDataExplorerSchemaQuery();
  const tables = useMemo(() => schema.data?.tableSchema ?? [], [schema.data]);
  const problems = useMemo(() => validateQuery(query, tables), [query, tables]);
  // The server's refusal joins the builder's own problems unless they already name that item.
  const shownProblems = useMemo(() => {
    const own = isShowRuleProblems ? problems : [];
    const samePath = (p: RuleProblem) => serverRuleProblem && p.path.join('.') === serverRuleProblem.path.join('.');
    return serverRuleProblem && !own.some(samePath) ? [...own, serverRuleProblem] : own;
  }, [isShowRuleProblems, problems, serverRuleProblem]);
  const problemsRef = useRef<HTMLDivElement>(null);

  /** The server refused the tree: show its problem on the rule it names; false when it names none. */
  const showServerProblem = (detail: string | undefined) => {
    const problem = problemFromServerDetail(detail, query, tables);
    if (problem) dispatch(serverRuleProblemFound(problem));
    return problem !== null;
  };
  const { run, isRunning, status, result, resultAt, error, executionId, isNotRunYet, resultQuery } = useQueryRun({ onTreeRefused: showServerProblem });

  /** Runs or saves only a query whose rules are complete; otherwise marks them and says what to fix. */
  const rulesAreValid = () => {
    if (problems.length === 0) return true;
    dispatch(ruleProblemsShown());
    setTimeout(() => problemsRef.current?.focus(), 0);
    return false;
  };
  const [createQuery, creating] = useCreateQueryMutation();
  const [updateQuery, updating] = useUpdateQueryMutation();
  const [deleteQuery, deleting] = useDeleteQueryMutation();
  const [dialog, setDialog] = useState<Dialog>(null);

  const allowed = (permission: Parameters<typeof can>[1]) => can(me ?? null, permission);
  // A cohort definition is a question of its own: it can run and be saved without simple rules.
  const hasRules = countRules(query) > 0 || query.cohortDefinition !== undefined;
  // A result counted in a dataset the warehouse no longer serves (it was reloaded since): shown as
  // such, and no cohort is made from it (the API would refuse it too).
  const servedSource = schema.data?.warehouse.source ?? null;
  const olderDataset = result?.dataset && servedSource && result.dataset !== servedSource ? result.dataset : null;
  const cohortSource: CohortFromRun = isRunning
    ? { allowed: false, reason: 'Wait for the run to finish: a cohort is made from a finished run.' }
    : olderDataset
      ? { allowed: false, reason: 'These results were counted in data no longer served: run the query again to make a cohort from the current data.' }
      : error
      ? { allowed: false, reason: 'The last run failed: run the query again to make a cohort from current results.' }
      : cohortFromRun({ isAnonymousQuery, isQueryEdited, executionId });

  const create = async (name: string) => {
    const saved = await createQuery({ name, query: withoutIds(query) }).unwrap();
    dispatch(querySaved({ id: saved.id, name: saved.name }));
  };

  /** A save the server refused because of a rule: close the dialog so that the highlighted rule shows. */
  const onSaveRefused = (error: unknown) => {
    if ((error as FetchBaseQueryError | undefined)?.status === 400 && showServerProblem(detailOf(error))) setDialog(null);
  };

  const onRun = () => {
    if (rulesAreValid()) run();
  };

  const onSave = () => {
    if (!rulesAreValid()) return undefined;
    if (isAnonymousQuery || !queryId) return setDialog('save');
    void updateQuery({ queryId, query: withoutIds(query) })
      .unwrap()
      .then((saved) => dispatch(querySaved({ id: saved.id, name: saved.name })))
      .catch(onSaveRefused);
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
      create(name).then(done, onSaveRefused);
    }
  };

  const onDelete = () => {
    if (!queryId) return;
    void deleteQuery(queryId)
      .unwrap()
      .then(() => {
        showToast({ type: 'success', title: 'Query deleted' });
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
          {/* Busy by its icon rather than antd's `loading`: a run refused at once (the server down)
              ends within a few milliseconds, and antd's animated loading icon then could stay in
              the button, naming it "loading Run" for good. */}
          <Button
            type="primary"
            onClick={isRunning ? undefined : onRun}
            icon={isRunning ? <LoadingOutlined aria-hidden /> : undefined}
            aria-busy={isRunning}
            disabled={!hasRules || !allowed('queries:execute')}
          >
            Run
          </Button>
          <Button onClick={onSave} loading={updating.isLoading && dialog === null} disabled={!allowed(queryId ? 'queries:update' : 'queries:create') || (!isQueryEdited && !!queryId)}>
            Save
          </Button>
          <Button onClick={() => rulesAreValid() && setDialog('saveAs')} disabled={!hasRules || !allowed('queries:create')}>
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

      <div ref={problemsRef} tabIndex={-1}>
        {shownProblems.length > 0 ? <RuleProblems problems={shownProblems} /> : null}
      </div>

      <div id="query-editor" hidden={!isShowQueryEditor}>
        {schema.data ? (
          schema.data.warehouse.loaded ? (
            <>
              <QueryEditor tables={schema.data.tableSchema} problems={shownProblems} />
              <CohortDefinitionSection Editor={CohortDefinitionEditor} />
            </>
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
            {result ? <span style={{ color: '#5b6470' }}>The results below are from the previous run.</span> : null}
          </Flex>
        ) : null}
        {!isRunning && error && result && resultAt ? (
          <Alert
            type="warning"
            showIcon
            className="stale-results"
            title={`These results are from ${clockTime(resultAt)}; the last run failed.`}
            description={error}
          />
        ) : null}
        {!isRunning && error && !result ? <Alert type="error" showIcon className="run-failed" title="The run failed." description={error} /> : null}
        {!isRunning && !result && !error && isNotRunYet ? (
          <Alert type="info" showIcon className="not-run-yet" title={NOT_RUN_YET} />
        ) : null}
      </div>

      {result ? (
        <section
          aria-labelledby="results-heading"
          aria-busy={isRunning}
          className={isRunning || error ? 'results results-stale' : 'results'}
          style={{ marginTop: 16 }}
        >
          <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 8 }}>
            <h2 id="results-heading" style={{ fontSize: 16, fontWeight: 600, margin: 0 }}>
              Results
            </h2>
            {allowed('cohorts:create') ? <CreateCohortButton source={cohortSource} queryName={queryName} result={result} /> : null}
          </Flex>
          <div className="results-answer" style={{ background: '#f5f7f9', border: '1px solid #e5e8ec', borderRadius: 6, padding: '8px 12px', marginBottom: 12 }}>
            <p style={{ margin: 0 }}>
              <strong>These results answer:</strong> {resultQuery ? <CriteriaSummary query={resultQuery} tables={tables} /> : null}
            </p>
            <p style={{ margin: '4px 0 0', color: '#5b6470' }} className="results-dataset">
              Counted in: {result.dataset ?? schema.data?.warehouse.source ?? 'the loaded dataset'}
              {resultAt ? `, at ${clockTime(resultAt)}` : ''}
            </p>
          </div>
          {olderDataset ? (
            <Alert
              type="warning"
              showIcon
              role="status"
              style={{ marginBottom: 12 }}
              data-testid="results-older-dataset"
              title="These results were counted in a previous dataset"
              description={`They were counted in ${olderDataset}; the platform now serves ${servedSource}. Run the query again to count in the current data.`}
            />
          ) : null}
          <div style={{ opacity: isRunning ? 0.45 : 1, transition: 'opacity 0.2s' }} className="results-body">
            {result.attrition ? <AttritionView attrition={result.attrition} caption="Attrition of this run" query={resultQuery} /> : null}
            <QueryResults result={result} />
          </div>
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
