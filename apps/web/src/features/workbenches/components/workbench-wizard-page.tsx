import { useEffect, useRef, useState } from 'react';
import dynamic from 'next/dynamic';
import Link from 'next/link';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { skipToken } from '@reduxjs/toolkit/query';
import type { Workbench } from '@hdp/contract';
import { LoadingStatus } from '@/components/loading-status';
import { useGetMeQuery } from '@/features/users/api/get-me';
import { useGetWorkbenchQuery } from '../api/get-workbench';
import { canManageWorkbench, isNotFound } from '../workbench-abilities';
import { WorkbenchUnavailable } from './workbench-not-found';

const loading = () => <LoadingStatus label="Loading the wizard" padding={48} />;
// The steps and their pickers (antd Steps, Table, Select, Checkbox) load after the first paint.
const WorkbenchWizard = dynamic(() => import('./wizard/workbench-wizard'), { ssr: false, loading });

const PANEL = { background: '#ffffff', border: '1px solid #e5e8ec', borderRadius: 8, padding: 24 } as const;
const H1 = { fontSize: 24, fontWeight: 600, margin: '0 0 16px', overflowWrap: 'anywhere' } as const;

/**
 * The workbench as the server has it now, for an edit to be based on: a copy cached from an earlier
 * visit may be older, and an edit based on it would be refused as stale.
 */
function useFreshWorkbench(workbenchId: string | undefined) {
  const openedAt = useRef(Date.now());
  const query = useGetWorkbenchQuery(workbenchId || skipToken, { refetchOnMountOrArgChange: true });
  const [base, setBase] = useState<Workbench>();
  const fresh = query.data && !query.isFetching && (query.fulfilledTimeStamp ?? 0) >= openedAt.current;
  useEffect(() => {
    if (!base && fresh) setBase(query.data);
  }, [base, fresh, query.data]);
  return { base, error: query.error, isError: query.isError };
}

/** The page of the wizard: create a workbench, or edit one (by its owners and administrators). */
export function WorkbenchWizardPage({ workbenchId }: { workbenchId?: string }) {
  const { data: me } = useGetMeQuery();
  const editing = workbenchId !== undefined;
  const { base, error, isError } = useFreshWorkbench(workbenchId);

  let body;
  if (editing && isNotFound(error)) body = <WorkbenchUnavailable reason="not-found" />;
  else if (editing && isError) body = <WorkbenchUnavailable reason="error" />;
  else if (!me || (editing && !base)) {
    body = (
      <>
        <h1 style={H1}>{editing ? 'Edit workbench' : 'Create a workbench'}</h1>
        {loading()}
      </>
    );
  } else if (base && !canManageWorkbench(base, me)) body = <WorkbenchUnavailable reason="not-owner" />;
  else {
    body = (
      <>
        <h1 style={H1}>{base ? `Edit ${base.name}` : 'Create a workbench'}</h1>
        <section style={PANEL} aria-label={base ? 'Edit the workbench' : 'Create a workbench'}>
          <WorkbenchWizard me={me} workbench={base} />
        </section>
      </>
    );
  }

  return (
    <>
      <nav aria-label="Breadcrumb" style={{ marginBottom: 12 }}>
        <Link href={editing ? `/workbenches/${workbenchId}` : '/workbenches'}>
          <ArrowLeftOutlined aria-hidden /> {editing ? 'Back to the workbench' : 'All workbenches'}
        </Link>
      </nav>
      {body}
    </>
  );
}
