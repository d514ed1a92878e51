import Head from 'next/head';
import { useRouter } from 'next/router';
import type { AppPage } from '@/app/page-access';
import { BRAND } from '@/config/brand';
import { WorkbenchWizardPage } from '@/features/workbenches/components/workbench-wizard-page';

const Page: AppPage = () => {
  const { query, isReady } = useRouter();
  return (
    <>
      <Head>
        <title>{`Edit workbench · ${BRAND.name}`}</title>
      </Head>
      {isReady ? <WorkbenchWizardPage workbenchId={String(query.workbenchId ?? '')} /> : null}
    </>
  );
};
Page.access = { permission: 'workbenches:update' };
export default Page;
