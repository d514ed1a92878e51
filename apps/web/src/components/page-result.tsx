import { Button, Result } from 'antd';
import { HomeOutlined } from '@ant-design/icons';

/**
 * A whole-page outcome (403, 404, load or server failure), with a way home when `home` is set. Loaded on
 * demand: most visits never show one.
 */
export default function PageResult({ status, title, subTitle, home }: { status: '403' | '404' | 'error'; title: string; subTitle: string; home?: boolean }) {
  return (
    <Result
      status={status === 'error' ? 'error' : status === '404' ? 'info' : 'warning'}
      title={<h1 style={{ fontSize: 24, fontWeight: 600, margin: 0 }}>{title}</h1>}
      subTitle={subTitle}
      extra={
        home ? (
          <Button type="primary" href="/" icon={<HomeOutlined aria-hidden />}>
            Go to the home page
          </Button>
        ) : undefined
      }
    />
  );
}
