import dynamic from 'next/dynamic';
import Link from 'next/link';
import { Alert, Button, Flex, Progress, Tabs, type TableColumnsType } from 'antd';
import { CardTable } from '@/components/card-table';
import { RecordFacts, type RecordFact } from '@/components/record-facts';
import type { Workbench, WorkbenchCohort, WorkbenchDocument, WorkbenchMember, WorkbenchQuery } from '@hdp/contract';
import { RELEASED_TABLES } from '@hdp/contract/workbench-rules';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { formatDate } from '@/lib/dates/format-date';
import { formatSize } from '@/lib/files/document-size';
import { useGetMeQuery } from '@/features/users/api/get-me';
import { countOf, MEMBER_ROLE_LABELS, myRoleLabel } from '../labels';
import { isProvisioning } from '../provisioning';
import { refusalsDismissed, selectRefusals } from '../refusals-slice';
import { canManageWorkbench } from '../workbench-abilities';
import { ReleaseStateTag } from './release-state-tag';
import { WorkbenchActions } from './workbench-actions';

// Loaded when the tab is first opened: the list, its actions and the create dialog stay out of the page's first load.
// Dashboards embed the visualisation service's React component, loaded only when the tab opens.
const WorkbenchDashboards = dynamic(
  () => import('@/features/dashboards/components/workbench-dashboards').then((module) => module.WorkbenchDashboards),
  { ssr: false },
);
// Only offered when a newer published version exists: its code (the update call, the wizard's body rules) stays out of the first load.
const UpdateCohortVersion = dynamic(() => import('./update-cohort-version').then((module) => module.UpdateCohortVersion), { ssr: false });
const NotebooksTab = dynamic(() => import('@/features/notebooks/components/notebooks-tab'), {
  ssr: false,
  loading: () => (
    <p role="status" style={{ margin: 0 }}>
      Loading the notebooks…
    </p>
  ),
});

const OutputsTab = dynamic(() => import('@/features/outputs/components/outputs-tab'), { ssr: false });

const PANEL = { background: '#ffffff', border: '1px solid #e5e8ec', borderRadius: 8, padding: 24, marginBottom: 16 } as const;
const H2 = { fontSize: 16, fontWeight: 600, margin: '0 0 12px' } as const;
const MUTED = { color: '#5b6470' } as const;
const KIND_LABELS = { cohort: 'Cohort', query: 'Query', document: 'Document', user: 'Member' } as const;

/** A release's state, with its progress while files are being written and its reason when it failed. */
function CohortProvisioning({ cohort }: { cohort: WorkbenchCohort }) {
  return (
    <Flex vertical gap={4}>
      <ReleaseStateTag state={cohort.state} testId="cohort-release-state" />
      {isProvisioning(cohort.state) ? (
        <Progress
          percent={Math.round(cohort.progress * 100)}
          size="small"
          status="active"
          aria-label={`Provisioning of ${cohort.name}`}
          style={{ width: 160, margin: 0 }}
        />
      ) : null}
      {cohort.state === 'FAILED' && cohort.error ? (
        // A long reason wraps inside its cell rather than widening the table past the card.
        <span style={{ color: '#a8071a', maxWidth: 420, whiteSpace: 'normal', overflowWrap: 'anywhere' }} data-testid="cohort-release-error">
          {cohort.error}
        </span>
      ) : null}
    </Flex>
  );
}

function MembersTable({ members }: { members: readonly WorkbenchMember[] }) {
  const columns: TableColumnsType<WorkbenchMember> = [
    { key: 'name', title: 'Name', dataIndex: 'name', render: (name: string | null) => name ?? '–' },
    { key: 'email', title: 'Email', dataIndex: 'email' },
    { key: 'role', title: 'Role', dataIndex: 'role', render: (role: WorkbenchMember['role']) => MEMBER_ROLE_LABELS[role] },
  ];
  return <CardTable<WorkbenchMember> columns={columns} rows={members} />;
}

/**
 * The released version, and a newer published one: whoever may edit the workbench moves to it in one
 * action; otherwise (or when it cannot be released now) the cell says so.
 */
function CohortVersion({ cohort, workbench, canManage }: { cohort: WorkbenchCohort; workbench?: Workbench; canManage: boolean }) {
  if (cohort.latest_version <= cohort.version) return <>{cohort.version}</>;
  const newer = `Version ${cohort.latest_version}${cohort.latest_person_count_display ? ` (${cohort.latest_person_count_display} persons)` : ''} is published.`;
  return (
    <Flex vertical gap={4} align="start" style={{ maxWidth: 320, whiteSpace: 'normal' }}>
      <span>{cohort.version}</span>
      <span style={MUTED}>{newer}</span>
      {!cohort.latest_releasable ? (
        <span style={{ color: '#a8071a' }}>It cannot be released now: its data were reloaded since. A data steward can re-run the cohort and publish it.</span>
      ) : canManage && workbench ? (
        <UpdateCohortVersion workbench={workbench} cohort={cohort} />
      ) : (
        <span style={MUTED}>An owner of this workbench can update it.</span>
      )}
    </Flex>
  );
}

function CohortsTable({ cohorts, withRows, workbench, canManage = false }: { cohorts: readonly WorkbenchCohort[]; withRows: boolean; workbench?: Workbench; canManage?: boolean }) {
  const columns: TableColumnsType<WorkbenchCohort> = [
    { key: 'name', title: 'Cohort', dataIndex: 'name', render: (name: string, cohort) => <Link href={`/cohorts/${cohort.id}`}>{name}</Link> },
    { key: 'persons', title: 'Persons', dataIndex: 'person_count_display', align: 'right' },
    {
      key: 'version', title: 'Version',
      render: (_value, cohort) => <CohortVersion cohort={cohort} workbench={workbench} canManage={canManage} />,
    },
    { key: 'state', title: 'Provisioning', render: (_value, cohort) => <CohortProvisioning cohort={cohort} /> },
    { key: 'released', title: 'Released', dataIndex: 'released_at', render: (at: string) => formatDate(at) },
  ];
  return (
    <CardTable<WorkbenchCohort>
      columns={columns}
      rows={cohorts}
      emptyText="No cohorts released to this workbench."
      scroll={{ x: 'max-content' }}
      expandable={
        withRows
          ? {
              rowExpandable: (cohort) => cohort.row_counts !== null,
              expandedRowRender: (cohort) => <RowCounts cohort={cohort} />,
              expandIcon: ({ expanded, onExpand, record, expandable }) =>
                expandable ? (
                  <Button type="link" size="small" aria-expanded={expanded} onClick={(event) => onExpand(record, event)}>
                    {expanded ? 'Hide rows' : 'Rows per table'}
                  </Button>
                ) : null,
            }
          : undefined
      }
    />
  );
}

/** The rows released per OMOP table for one cohort. */
function RowCounts({ cohort }: { cohort: WorkbenchCohort }) {
  const rows = RELEASED_TABLES.filter((table) => cohort.row_counts?.[table] !== undefined).map((table) => ({ table, rows: cohort.row_counts![table]! }));
  return (
    <table aria-label={`Rows of ${cohort.name} per table`} style={{ borderCollapse: 'collapse', minWidth: 320 }}>
      <thead>
        <tr>
          <th style={{ textAlign: 'left', padding: '2px 12px 2px 0' }}>Table</th>
          <th style={{ textAlign: 'right', padding: '2px 0' }}>Rows</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ table, rows: count }) => (
          <tr key={table}>
            <td style={{ padding: '2px 12px 2px 0', fontFamily: 'monospace' }}>{table}</td>
            <td style={{ textAlign: 'right', padding: '2px 0' }}>{count.toLocaleString('en-GB')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function QueriesTable({ queries }: { queries: readonly WorkbenchQuery[] }) {
  const columns: TableColumnsType<WorkbenchQuery> = [
    { key: 'name', title: 'Query', dataIndex: 'name' },
    { key: 'description', title: 'Description', dataIndex: 'description', render: (text: string) => text || '–' },
    { key: 'copied', title: 'Copied', dataIndex: 'copied_at', render: (at: string) => formatDate(at) },
  ];
  return <CardTable<WorkbenchQuery> columns={columns} rows={queries} emptyText="No saved queries copied into this workbench." />;
}

function DocumentsTable({ documents }: { documents: readonly WorkbenchDocument[] }) {
  const columns: TableColumnsType<WorkbenchDocument> = [
    { key: 'name', title: 'Document', dataIndex: 'name' },
    { key: 'type', title: 'Type', dataIndex: 'content_type' },
    { key: 'size', title: 'Size', dataIndex: 'size_bytes', align: 'right', render: (bytes: number) => formatSize(bytes) },
    { key: 'copied', title: 'Copied', dataIndex: 'copied_at', render: (at: string) => formatDate(at) },
  ];
  return <CardTable<WorkbenchDocument> columns={columns} rows={documents} emptyText="No documents copied into this workbench." />;
}

/** What the last create or update left out, named as the user picked it, until dismissed. */
function RefusedParts({ workbenchId }: { workbenchId: string }) {
  const dispatch = useAppDispatch();
  const refused = useAppSelector((state) => selectRefusals(state, workbenchId));
  if (!refused?.length) return null;
  return (
    <Alert
      type="warning"
      showIcon
      closable={{ onClose: () => dispatch(refusalsDismissed(workbenchId)), 'aria-label': 'Dismiss' }}
      style={{ marginBottom: 16 }}
      title="Some of your choices were not applied"
      description={
        <>
          <p style={{ margin: '0 0 4px' }}>Everything else was saved. Review these, then edit the workbench to try again:</p>
          <ul aria-label="Not applied" style={{ margin: 0, paddingInlineStart: 20 }}>
            {refused.map((part) => (
              <li key={`${part.kind}-${part.id}`}>
                {KIND_LABELS[part.kind]} {part.name}: {part.reason}
              </li>
            ))}
          </ul>
        </>
      }
    />
  );
}

/** One workbench: its purpose, members, data and provisioning, with tabs for the data, documents and notebooks. */
export default function WorkbenchDetail({ workbench }: { workbench: Workbench }) {
  const { data: me } = useGetMeQuery();
  const facts: RecordFact[] = [
    { key: 'role', label: 'Your role', children: myRoleLabel(workbench.my_role) },
    { key: 'data', label: 'Data', children: <ReleaseStateTag state={workbench.state} testId="workbench-state" /> },
    { key: 'created', label: 'Created', children: `${formatDate(workbench.created_at)}${workbench.created_by.email ? ` by ${workbench.created_by.email}` : ''}` },
    { key: 'updated', label: 'Updated', children: `${formatDate(workbench.updated_at)}${workbench.updated_by.email ? ` by ${workbench.updated_by.email}` : ''}` },
    { key: 'version', label: 'Version', children: workbench.version },
  ];

  const overview = (
    <>
      <section aria-labelledby="workbench-members-heading" style={{ marginBottom: 24 }}>
        <h2 id="workbench-members-heading" style={H2}>
          Members ({workbench.members.length})
        </h2>
        <MembersTable members={workbench.members} />
      </section>
      <section aria-labelledby="workbench-data-heading">
        <h2 id="workbench-data-heading" style={H2}>
          Data
        </h2>
        <p style={{ margin: '0 0 12px' }}>
          {[
            countOf(workbench.cohorts.length, 'cohort', 'cohorts'),
            countOf(workbench.queries.length, 'saved query', 'saved queries'),
            countOf(workbench.documents.length, 'document', 'documents'),
          ].join(' · ')}
        </p>
        <CohortsTable cohorts={workbench.cohorts} withRows={false} workbench={workbench} canManage={canManageWorkbench(workbench, me)} />
      </section>
    </>
  );

  return (
    <>
      <section aria-labelledby="workbench-heading" style={PANEL}>
        <Flex justify="space-between" align="start" wrap gap={12} style={{ marginBottom: 12 }}>
          <Flex align="center" gap={12} wrap>
            <h1 id="workbench-heading" style={{ fontSize: 24, fontWeight: 600, margin: 0, overflowWrap: 'anywhere' }}>
              {workbench.name}
            </h1>
            <ReleaseStateTag state={workbench.state} />
          </Flex>
          {canManageWorkbench(workbench, me) ? <WorkbenchActions workbench={workbench} /> : null}
        </Flex>
        <RefusedParts workbenchId={workbench.id} />
        <p style={{ margin: '0 0 16px', whiteSpace: 'pre-line', overflowWrap: 'anywhere' }} data-testid="workbench-purpose">
          {workbench.purpose}
        </p>
        <RecordFacts label="About this workbench" items={facts} />
      </section>
      <section style={PANEL} aria-label="Workbench contents">
        <Tabs
          className="hdp-wrapping-tabs"
          items={[
            { key: 'overview', label: 'Overview', children: overview },
            {
              key: 'data', label: 'Data',
              children: (
                <>
                  <h2 style={H2}>Cohorts</h2>
                  <p style={{ ...MUTED, margin: '0 0 8px' }}>
                    Each cohort&apos;s records are written into the workbench as CSV files, one per table, with a data dictionary.
                  </p>
                  <CohortsTable cohorts={workbench.cohorts} withRows workbench={workbench} canManage={canManageWorkbench(workbench, me)} />
                  <h2 style={{ ...H2, marginTop: 24 }}>Saved queries</h2>
                  <QueriesTable queries={workbench.queries} />
                </>
              ),
            },
            {
              key: 'documents', label: 'Documents',
              children: (
                <>
                  <h2 style={H2}>Documents</h2>
                  <DocumentsTable documents={workbench.documents} />
                </>
              ),
            },
            {
              key: 'notebooks', label: 'Notebooks',
              children: <NotebooksTab workbench={workbench} />,
            },
            { key: 'outputs', label: 'Outputs', children: <OutputsTab workbench={workbench} /> },
            {
              key: 'dashboards', label: 'Dashboards',
              children: <WorkbenchDashboards workbenchId={workbench.id} administrator={me?.roles.includes('ADMIN') ?? false} />,
            },
          ]}
        />
      </section>
    </>
  );
}
