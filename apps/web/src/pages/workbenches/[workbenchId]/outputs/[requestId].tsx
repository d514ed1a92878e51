import Head from 'next/head';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { ArrowLeftOutlined } from '@ant-design/icons';
import type { AppPage } from '@/app/page-access';
import { BRAND } from '@/config/brand';
import { ReleaseRequestView } from '@/features/outputs/components/release-request-view';

const Page: AppPage = () => {
  const { query, isReady } = useRouter();
  const workbenchId = String(query.workbenchId ?? '');
  return (
    <>
      <Head>
        <title>{`Release request · ${BRAND.name}`}</title>
      </Head>
      <nav aria-label="Breadcrumb" style={{ marginBottom: 12 }}>
        <Link href={`/workbenches/${workbenchId}`}>
          <ArrowLeftOutlined aria-hidden /> The workbench
        </Link>
      </nav>
      {isReady ? <ReleaseRequestView requestId={String(query.requestId ?? '')} /> : null}
    </>
  );
};
Page.access = { permission: 'outputs:read' };
export default Page;
