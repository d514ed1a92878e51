import Head from 'next/head';
import type { AppPage } from '@/app/page-access';
import { BRAND } from '@/config/brand';
import { WorkbenchesPage } from '@/features/workbenches/components/workbenches-page';

const Page: AppPage = () => (
  <>
    <Head>
      <title>{`Workbenches · ${BRAND.name}`}</title>
    </Head>
    <WorkbenchesPage />
  </>
);
Page.access = { permission: 'workbenches:list' };
export default Page;
