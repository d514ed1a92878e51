import { LoadingOutlined } from '@ant-design/icons';
import { Spin } from 'antd';
import { ROUTE_SPINNER_SIZE } from '@/config/constants';

/** A spinner over the whole page (size 80). */
export function FullPageSpinner({ label = 'Loading', testId }: { label?: string; testId?: string }) {
  return (
    <div role="status" aria-live="polite" aria-label={label} data-testid={testId} style={{ position: 'fixed', inset: 0, zIndex: 2000 }}>
      <Spin fullscreen spinning indicator={<LoadingOutlined style={{ fontSize: ROUTE_SPINNER_SIZE }} spin />} />
    </div>
  );
}
