import { Result } from 'antd';

/** A whole-page outcome (403, load failure). Loaded on demand: most visits never show one. */
export default function PageResult({ status, title, subTitle }: { status: '403' | 'error'; title: string; subTitle: string }) {
  return <Result status={status} title={title} subTitle={subTitle} />;
}
