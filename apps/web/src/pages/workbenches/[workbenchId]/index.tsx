import Head from 'next/head';
import { useRouter } from 'next/router';
import type { AppPage } from '@/app/page-access';
import { BRAND } from '@/config/brand';
import { WorkbenchPage } from '@/features/workbenches/components/workbench-page';
import { getWorkbenchApi } from '@/features/workbenches/api/get-workbench';

const Page: AppPage = () => {
  const { query } = useRouter();
  return (
    <>
      <Head>
        <title>{`Workbench · ${BRAND.name}`}</title>
      </Head>
      <WorkbenchPage workbenchId={String(query.workbenchId ?? '')} />
    </>
  );
};
Page.access = { permission: 'workbenches:read' };
Page.initialQueries = ({ query }) => (typeof query.workbenchId === 'string' && query.workbenchId ? [getWorkbenchApi.endpoints.getWorkbench.initiate(query.workbenchId)] : []);
export default Page;
