import type { ReactNode } from 'react';
import { Button, Checkbox, Flex, Pagination } from 'antd';
import { LoadingStatus } from '@/components/loading-status';

/** One choosable item of a picker. */
export interface PickItem {
  id: string;
  label: string;
  /** A second line: size, tags, owner. */
  detail?: ReactNode;
  checked: boolean;
  /** Why it cannot be chosen, when it cannot. */
  disabledReason?: string;
}

interface PickListProps {
  /** Names the list for assistive technology ("Published cohorts"). */
  label: string;
  items: readonly PickItem[];
  loading: boolean;
  error: boolean;
  emptyText: string;
  onToggle: (id: string, checked: boolean) => void;
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}

const MUTED = { color: '#5b6470', fontSize: 13 } as const;

/** A page of checkboxes, one per item, each named by the item; paging below. */
export function PickList({ label, items, loading, error, emptyText, onToggle, page, pageSize, total, onPage }: PickListProps) {
  let body: ReactNode;
  if (error) body = <p style={{ ...MUTED, margin: 0 }}>These could not be loaded. Please try again.</p>;
  else if (loading && items.length === 0) body = <LoadingStatus label={`Loading ${label.toLowerCase()}`} padding={16} />;
  else if (items.length === 0) body = <p style={{ ...MUTED, margin: 0 }}>{emptyText}</p>;
  else {
    body = (
      <ul aria-label={label} aria-busy={loading} style={{ listStyle: 'none', margin: 0, padding: 0, opacity: loading ? 0.6 : 1 }}>
        {items.map((item) => (
          <li key={item.id} style={{ padding: '6px 0', borderBottom: '1px solid #f0f0f0' }}>
            <Checkbox checked={item.checked} disabled={item.disabledReason !== undefined && !item.checked} onChange={(event) => onToggle(item.id, event.target.checked)}>
              <span style={{ fontWeight: 500 }}>{item.label}</span>
            </Checkbox>
            {item.detail || item.disabledReason ? (
              <div style={{ ...MUTED, paddingInlineStart: 24 }}>
                {item.detail}
                {item.disabledReason ? <span> · {item.disabledReason}</span> : null}
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    );
  }
  return (
    <>
      {body}
      <Flex justify="end" style={{ marginTop: 8 }}>
        <Pagination size="small" current={page} pageSize={pageSize} total={total} showSizeChanger={false} hideOnSinglePage onChange={onPage} />
      </Flex>
    </>
  );
}

/** What has been chosen so far (also from other pages and searches), each with a Remove button. */
export function ChosenList({ label, items, onRemove, emptyText }: { label: string; items: readonly { id: string; label: string; detail?: string }[]; onRemove: (id: string) => void; emptyText: string }) {
  if (items.length === 0) return <p style={{ ...MUTED, margin: '0 0 8px' }}>{emptyText}</p>;
  return (
    <ul aria-label={label} style={{ listStyle: 'none', margin: '0 0 8px', padding: 0, display: 'flex', flexWrap: 'wrap', gap: 8 }}>
      {items.map((item) => (
        <li key={item.id} style={{ display: 'inline-flex', alignItems: 'center', gap: 4, border: '1px solid #d9d9d9', borderRadius: 6, padding: '0 0 0 8px', background: '#fafafa' }}>
          <span>
            {item.label}
            {item.detail ? <span style={MUTED}> · {item.detail}</span> : null}
          </span>
          <Button type="text" size="small" aria-label={`Remove ${item.label}`} onClick={() => onRemove(item.id)}>
            ✕
          </Button>
        </li>
      ))}
    </ul>
  );
}
