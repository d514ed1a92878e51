import { useEffect, useState } from 'react';
import dynamic from 'next/dynamic';
import Link from 'next/link';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { skipToken } from '@reduxjs/toolkit/query';
import { LoadingStatus } from '@/components/loading-status';
import { useGetWorkbenchQuery } from '../api/get-workbench';
import { isProvisioning, PROVISIONING_POLL_MS } from '../provisioning';
import { deletedDetail, isNotFound } from '../workbench-abilities';

const loading = () => <LoadingStatus label="Loading the workbench" padding={48} />;
// The overview, the tabs and the dialogs (antd Tabs, Table, Descriptions, Progress): a chunk of their
// own, rendered on the server with the workbench (`initialQueries`) and taken over once loaded.
const WorkbenchDetail = dynamic(() => import('./workbench-detail'), { loading });
// Rarely shown (antd Empty and its pictures): loaded only when needed.
const WorkbenchUnavailable = dynamic(() => import('./workbench-not-found').then((module) => module.WorkbenchUnavailable), { ssr: false });

/** One workbench, or why it cannot be shown. While any of its data is being provisioned it is asked for again every few seconds. */
export function WorkbenchPage({ workbenchId }: { workbenchId: string }) {
  const [polling, setPolling] = useState(false);
  // Asked again when the window regains focus: a member coming back learns at once that the
  // workbench was deleted meanwhile (or its data moved on), rather than reading the old page.
  const { data, error, isError } = useGetWorkbenchQuery(workbenchId || skipToken, { pollingInterval: polling ? PROVISIONING_POLL_MS : 0, refetchOnFocus: true });
  const provisioning = data ? data.cohorts.some((cohort) => isProvisioning(cohort.state)) : false;
  useEffect(() => setPolling(provisioning), [provisioning]);

  let body;
  // A 404 wins over the workbench shown before: it was deleted (or the user taken out of it) since.
  if (isNotFound(error)) body = <WorkbenchUnavailable reason="not-found" deleted={deletedDetail(error)} />;
  else if (data) body = <WorkbenchDetail workbench={data} />;
  else if (isError) body = <WorkbenchUnavailable reason="error" />;
  else {
    body = (
      <>
        <h1 style={{ fontSize: 24, fontWeight: 600, margin: '0 0 16px' }}>Workbench</h1>
        {loading()}
      </>
    );
  }
  return (
    <>
      <nav aria-label="Breadcrumb" style={{ marginBottom: 12 }}>
        <Link href="/workbenches">
          <ArrowLeftOutlined aria-hidden /> All workbenches
        </Link>
      </nav>
      {body}
    </>
  );
}
