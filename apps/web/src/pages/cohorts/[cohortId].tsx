import Head from 'next/head';
import { useRouter } from 'next/router';
import type { AppPage } from '@/app/page-access';
import { BRAND } from '@/config/brand';
import { CohortPage } from '@/features/cohorts/components/cohort-page';
import { getCohortApi } from '@/features/cohorts/api/get-cohort';

const Page: AppPage = () => {
  const { query } = useRouter();
  return (
    <>
      <Head>
        <title>{`Cohort · ${BRAND.name}`}</title>
      </Head>
      <CohortPage cohortId={String(query.cohortId ?? '')} />
    </>
  );
};
Page.access = { permission: 'cohorts:read' };
Page.initialQueries = ({ query }) => (typeof query.cohortId === 'string' && query.cohortId ? [getCohortApi.endpoints.getCohort.initiate(query.cohortId)] : []);
export default Page;
