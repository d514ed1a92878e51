import Head from 'next/head';
import type { AppPage } from '@/app/page-access';
import { BRAND } from '@/config/brand';
import { DocumentsPage } from '@/features/documents/components/documents-page';
import { INITIAL_DOCUMENT_ORDER, listDocumentsApi, toListDocumentsArgs } from '@/features/documents/api/list-documents';

const Page: AppPage = () => (
  <>
    <Head>
      <title>{`Documents · ${BRAND.name}`}</title>
    </Head>
    <DocumentsPage />
  </>
);
Page.access = { permission: 'documents:read' };
Page.initialQueries = () => [listDocumentsApi.endpoints.listDocuments.initiate(toListDocumentsArgs(1, INITIAL_DOCUMENT_ORDER))];
export default Page;
