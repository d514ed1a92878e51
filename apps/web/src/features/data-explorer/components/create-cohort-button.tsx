import { useState } from 'react';
import dynamic from 'next/dynamic';
import { TeamOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import type { QueryResult } from '@hdp/contract';
import type { CohortFromRun } from '../cohort-from-run';

// Opened on demand: its code loads when first needed.
const CreateCohortDialog = dynamic(() => import('@/features/cohorts/components/create-cohort-dialog'), { ssr: false });

const VISUALLY_HIDDEN = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

/**
 * "Create cohort" beside a result: opens the dialog when the result came from a saved query's
 * run; otherwise disabled, saying (tooltip and description) what to do first.
 */
export function CreateCohortButton({ source, queryName, result }: { source: CohortFromRun; queryName: string; result: QueryResult }) {
  const [open, setOpen] = useState(false);
  if (!source.allowed) {
    return (
      <>
        <Tooltip title={source.reason}>
          <Button icon={<TeamOutlined aria-hidden />} disabled aria-describedby="create-cohort-why">
            Create cohort
          </Button>
        </Tooltip>
        <span id="create-cohort-why" style={VISUALLY_HIDDEN}>
          {source.reason}
        </span>
      </>
    );
  }
  return (
    <>
      <Button icon={<TeamOutlined aria-hidden />} onClick={() => setOpen(true)}>
        Create cohort
      </Button>
      {open ? <CreateCohortDialog open executionId={source.executionId} queryName={queryName} result={result} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
