import type { ReactNode } from 'react';
import { ReloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { describeLoadFailure } from '@/lib/errors/load-failure-reason';

const BOX = { display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 8, padding: '24px 12px', textAlign: 'center' } as const;

export interface LoadFailureProps {
  /** What failed to load, as a sentence: "The users could not be loaded." */
  title: string;
  /** The failed query's error (RTK Query's), for the reason: the server unreachable, too slow, … */
  error: unknown;
  onRetry: () => void;
  retrying?: boolean;
  /** Extra content under the reason (a link elsewhere). */
  children?: ReactNode;
}

/**
 * What a page or list shows when its data could not be loaded: what failed, why (the same words as
 * the toast, "Unable to reach the server…") and a Retry button. Never an empty state ("No data"),
 * which would say there is nothing when nothing could be read.
 */
export function LoadFailure({ title, error, onRetry, retrying = false, children }: LoadFailureProps) {
  return (
    <div role="alert" style={BOX}>
      <strong style={{ fontSize: 15 }}>{title}</strong>
      <span style={{ color: '#595959' }}>{describeLoadFailure(error)}</span>
      {children}
      <Button icon={<ReloadOutlined aria-hidden />} onClick={onRetry} loading={retrying}>
        Retry
      </Button>
    </div>
  );
}
