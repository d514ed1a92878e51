import Head from 'next/head';
import type { AppPage } from '@/app/page-access';
import { BRAND } from '@/config/brand';
import { DataExplorerPage } from '@/features/data-explorer/components/data-explorer-page';

const Page: AppPage = () => (
  <>
    <Head>
      <title>{`Data Explorer · ${BRAND.name}`}</title>
    </Head>
    <DataExplorerPage />
  </>
);
Page.access = { permission: 'dataExplorer:readSchema' };
export default Page;
