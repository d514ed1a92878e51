import { Descriptions, Drawer } from 'antd';
import type { AuditEntry } from '@hdp/contract';
import { eventTypeLabel } from '../audit-log-filters';

const none = <span style={{ color: '#595959' }}>—</span>;
const show = (value: string | number | null | undefined) => (value === null || value === undefined || value === '' ? none : value);

/** Every field of one audit entry, its details as JSON. */
export function AuditEntryDrawer({ entry, onClose }: { entry: AuditEntry | null; onClose: () => void }) {
  return (
    <Drawer open={entry !== null} onClose={onClose} title={entry ? `Audit entry ${entry.seq}` : 'Audit entry'} size={560} closable={{ 'aria-label': 'Close' }}>
      {entry ? (
        <Descriptions
          column={1}
          size="small"
          bordered
          styles={{ label: { width: 150, color: '#434343' } }}
          items={[
            { key: 'seq', label: 'Entry', children: entry.seq },
            { key: 'timestamp', label: 'Time', children: entry.timestamp },
            { key: 'event_type', label: 'Event type', children: `${eventTypeLabel(entry.event_type)} (${entry.event_type})` },
            { key: 'outcome', label: 'Outcome', children: entry.outcome },
            { key: 'message', label: 'Message', children: entry.message },
            { key: 'actor_email', label: 'Actor', children: show(entry.actor.email) },
            { key: 'actor_id', label: 'Actor id', children: show(entry.actor.id) },
            { key: 'resource_type', label: 'Resource type', children: show(entry.resource.type) },
            { key: 'resource_id', label: 'Resource id', children: show(entry.resource.id) },
            { key: 'request_id', label: 'Request id', children: show(entry.request_id) },
            { key: 'client_address', label: 'Client address', children: show(entry.client_address) },
            { key: 'user_agent', label: 'User agent', children: show(entry.user_agent) },
            {
              key: 'details',
              label: 'Details',
              children: (
                <pre data-testid="audit-entry-details" style={{ margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontSize: 12 }}>
                  {JSON.stringify(entry.details, null, 2)}
                </pre>
              ),
            },
          ]}
        />
      ) : null}
    </Drawer>
  );
}
