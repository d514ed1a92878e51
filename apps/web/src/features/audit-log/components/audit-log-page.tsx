import dynamic from 'next/dynamic';
import { Flex } from 'antd';
import { ChainIntegrity } from './chain-integrity';
import { LoadingStatus } from '@/components/loading-status';

const PANEL = { background: '#ffffff', border: '1px solid #e5e8ec', borderRadius: 8, padding: 24 } as const;

// The table, its filters and the drawer carry most of the page's code: a chunk of their own, rendered
// on the server with the first page of entries (`initialQueries`) and taken over once loaded.
const AuditLogTable = dynamic(() => import('./audit-log-table').then((m) => m.AuditLogTable), {
  loading: () => <LoadingStatus label="Loading the audit log" padding={24} />,
});

/** The Audit Log page: the entries with their filters, and the hash chain's integrity. */
export function AuditLogPage() {
  return (
    <>
      <Flex align="center" justify="space-between" wrap gap={12} style={{ marginBottom: 16 }}>
        <h1 style={{ fontSize: 24, fontWeight: 600, margin: 0 }}>Audit Log</h1>
        {/* Room for the verdict from the start: "Checking integrity…" is shorter than what replaces
            it, which would otherwise move to a line of its own on a phone and push the list down. */}
        <div style={{ minWidth: 'min(100%, 340px)', display: 'flex', justifyContent: 'flex-end' }}>
          <ChainIntegrity />
        </div>
      </Flex>
      <section aria-label="Audit entries" style={PANEL}>
        <AuditLogTable />
      </section>
    </>
  );
}
