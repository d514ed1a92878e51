import Head from 'next/head';
import type { AppPage } from '@/app/page-access';
import { BRAND } from '@/config/brand';
import { WorkbenchesPage } from '@/features/workbenches/components/workbenches-page';
import { listWorkbenchesApi } from '@/features/workbenches/api/list-workbenches';
import { parseWorkbenchListQuery, toListWorkbenchesArgs } from '@/features/workbenches/hooks/workbench-list-params';

const Page: AppPage = () => (
  <>
    <Head>
      <title>{`Workbenches · ${BRAND.name}`}</title>
    </Head>
    <WorkbenchesPage />
  </>
);
Page.access = { permission: 'workbenches:list' };
Page.initialQueries = ({ query }) => [listWorkbenchesApi.endpoints.listWorkbenches.initiate(toListWorkbenchesArgs(parseWorkbenchListQuery(query)))];
export default Page;
