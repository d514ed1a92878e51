import { useState } from 'react';
import dynamic from 'next/dynamic';
import { TeamOutlined } from '@ant-design/icons';
import { Button, Flex } from 'antd';
import type { QueryResult } from '@hdp/contract';
import type { CohortFromRun } from '../cohort-from-run';

// Opened on demand: its code loads when first needed.
const CreateCohortDialog = dynamic(() => import('@/features/cohorts/components/create-cohort-dialog'), { ssr: false });

/**
 * "Create cohort" beside a result: opens the dialog when the result came from a saved query's
 * run; otherwise disabled, with what to do first written beside it.
 */
export function CreateCohortButton({ source, queryName, result }: { source: CohortFromRun; queryName: string; result: QueryResult }) {
  const [open, setOpen] = useState(false);
  if (!source.allowed) {
    return (
      <Flex align="center" gap={8} wrap justify="flex-end" style={{ maxWidth: 560 }}>
        <span id="create-cohort-why" className="create-cohort-why" style={{ color: '#5b6470', fontSize: 13 }}>
          {source.reason}
        </span>
        <Button icon={<TeamOutlined aria-hidden />} disabled aria-describedby="create-cohort-why">
          Create cohort
        </Button>
      </Flex>
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
