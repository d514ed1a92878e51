import Head from 'next/head';
import type { AppPage } from '@/app/page-access';
import { BRAND } from '@/config/brand';
import { CohortsPage } from '@/features/cohorts/components/cohorts-page';
import { listCohortsApi } from '@/features/cohorts/api/list-cohorts';
import { parseCohortListQuery, toListCohortsArgs } from '@/features/cohorts/hooks/cohort-list-params';

const Page: AppPage = () => (
  <>
    <Head>
      <title>{`Cohorts · ${BRAND.name}`}</title>
    </Head>
    <CohortsPage />
  </>
);
Page.access = { permission: 'cohorts:list' };
Page.initialQueries = ({ query }) => [listCohortsApi.endpoints.listCohorts.initiate(toListCohortsArgs(parseCohortListQuery(query)))];
export default Page;
