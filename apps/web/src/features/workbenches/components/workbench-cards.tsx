import Link from 'next/link';
import { Card, Flex } from 'antd';
import type { WorkbenchSummary } from '@hdp/contract';
import { formatDate } from '@/lib/dates/format-date';
import { describeContents, myRoleLabel } from '../labels';
import { ReleaseStateTag } from './release-state-tag';

const MUTED = { color: '#5b6470' } as const;

function WorkbenchCard({ workbench }: { workbench: WorkbenchSummary }) {
  return (
    <Card size="small" style={{ height: '100%' }} styles={{ body: { display: 'flex', flexDirection: 'column', gap: 8, height: '100%' } }}>
      <Flex justify="space-between" align="start" gap={8}>
        <h2 style={{ fontSize: 16, fontWeight: 600, margin: 0, overflowWrap: 'anywhere' }}>
          <Link href={`/workbenches/${workbench.id}`}>{workbench.name}</Link>
        </h2>
        <ReleaseStateTag state={workbench.state} />
      </Flex>
      <p style={{ margin: 0, display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden', overflowWrap: 'anywhere' }}>
        {workbench.purpose}
      </p>
      <p style={{ margin: 0 }}>
        Your role: <strong>{myRoleLabel(workbench.my_role)}</strong>
      </p>
      <p style={{ margin: 0 }}>{describeContents(workbench)}</p>
      <p style={{ ...MUTED, margin: 'auto 0 0', fontSize: 13 }}>Updated {formatDate(workbench.updated_at)}</p>
    </Card>
  );
}

/** The workbenches as cards: name (a link), provisioning state, purpose, the caller's role, members and data. */
export function WorkbenchCards({ workbenches }: { workbenches: readonly WorkbenchSummary[] }) {
  return (
    <ul
      aria-label="Workbenches"
      style={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))', gap: 16 }}
    >
      {workbenches.map((workbench) => (
        <li key={workbench.id}>
          <WorkbenchCard workbench={workbench} />
        </li>
      ))}
    </ul>
  );
}
