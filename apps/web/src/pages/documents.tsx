import Head from 'next/head';
import type { AppPage } from '@/app/page-access';
import { BRAND } from '@/config/brand';
import { DocumentsPage } from '@/features/documents/components/documents-page';

const Page: AppPage = () => (
  <>
    <Head>
      <title>{`Documents · ${BRAND.name}`}</title>
    </Head>
    <DocumentsPage />
  </>
);
Page.access = { permission: 'documents:read' };
export default Page;
