import Head from 'next/head';
import dynamic from 'next/dynamic';
import { BRAND } from '@/config/brand';

const PageResult = dynamic(() => import('@/components/page-result'));

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
      <PageResult status={kind === 'not-found' ? '404' : 'error'} title={title} subTitle={subTitle} home />
    </>
  );
}
