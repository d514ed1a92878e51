import Head from 'next/head';
import { Button, Result } from 'antd';
import { HomeOutlined } from '@ant-design/icons';
import { BRAND } from '@/config/brand';

/** The page of an address the app does not have (404), or of a failure the server could not handle. */
export function ProblemPage({ kind }: { kind: 'not-found' | 'server-error' }) {
  const title = kind === 'not-found' ? 'Page not found' : 'Something went wrong';
  const subTitle =
    kind === 'not-found'
      ? 'There is no page at this address. It may have moved, or the link may be mistyped.'
      : 'The page could not be shown. Please try again in a moment; if it keeps happening, contact support.';
  return (
    <>
      <Head>
        <title>{`${title} · ${BRAND.name}`}</title>
      </Head>
      <Result
        status={kind === 'not-found' ? 'info' : 'error'}
        title={<h1 style={{ fontSize: 24, fontWeight: 600, margin: 0 }}>{title}</h1>}
        subTitle={subTitle}
        extra={
          <Button type="primary" href="/" icon={<HomeOutlined aria-hidden />}>
            Go to the home page
          </Button>
        }
      />
    </>
  );
}
