import Head from 'next/head';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { ArrowLeftOutlined } from '@ant-design/icons';
import type { AppPage } from '@/app/page-access';
import { BRAND } from '@/config/brand';
import { ReleaseRequestView } from '@/features/outputs/components/release-request-view';

const Page: AppPage = () => {
  const { query, isReady } = useRouter();
  return (
    <>
      <Head>
        <title>{`Review outputs · ${BRAND.name}`}</title>
      </Head>
      <nav aria-label="Breadcrumb" style={{ marginBottom: 12 }}>
        <Link href="/review-outputs">
          <ArrowLeftOutlined aria-hidden /> All requests to review
        </Link>
      </nav>
      {isReady ? <ReleaseRequestView requestId={String(query.requestId ?? '')} /> : null}
    </>
  );
};
Page.access = { permission: 'outputs:review' };
export default Page;
