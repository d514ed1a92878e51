import dynamic from 'next/dynamic';
import { can } from '@hdp/contract/permissions';
import { useGetMeQuery } from '@/features/users/api/get-me';
import { LoadingStatus } from '@/components/loading-status';

const loading = (label: string) => () => <LoadingStatus label={label} padding={24} />;
// The table and the upload area carry most of the page's code: they load after the first paint,
// which keeps the route's first-load JavaScript within budget.
const DocumentUpload = dynamic(() => import('./document-upload').then((m) => m.DocumentUpload), { loading: loading('Loading the upload area') });
const DocumentsTable = dynamic(() => import('./documents-table').then((m) => m.DocumentsTable), { loading: loading('Loading the documents') });

const PANEL = { background: '#ffffff', border: '1px solid #e5e8ec', borderRadius: 8, padding: 24 } as const;

/** The Documents page: upload a document, list, download and delete documents. */
export function DocumentsPage() {
  const { data: me } = useGetMeQuery();
  return (
    <>
      <h1 style={{ fontSize: 24, fontWeight: 600, margin: '0 0 16px' }}>Documents</h1>
      {can(me ?? null, 'documents:upload') ? (
        <section aria-labelledby="upload-heading" style={{ ...PANEL, marginBottom: 16 }}>
          <h2 id="upload-heading" style={{ fontSize: 16, fontWeight: 600, margin: '0 0 12px' }}>
            Upload a document
          </h2>
          <DocumentUpload />
        </section>
      ) : null}
      <section aria-labelledby="documents-heading" style={PANEL}>
        <h2 id="documents-heading" style={{ fontSize: 16, fontWeight: 600, margin: '0 0 12px' }}>
          {me?.roles.includes('ADMIN') ? 'All documents' : 'Your documents'}
        </h2>
        <DocumentsTable canDelete={can(me ?? null, 'documents:delete')} />
      </section>
    </>
  );
}
