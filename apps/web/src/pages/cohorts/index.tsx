import Head from 'next/head';
import type { AppPage } from '@/app/page-access';
import { BRAND } from '@/config/brand';
import { CohortsPage } from '@/features/cohorts/components/cohorts-page';

const Page: AppPage = () => (
  <>
    <Head>
      <title>{`Cohorts · ${BRAND.name}`}</title>
    </Head>
    <CohortsPage />
  </>
);
Page.access = { permission: 'cohorts:list' };
export default Page;
