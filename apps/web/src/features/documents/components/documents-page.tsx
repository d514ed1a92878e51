import dynamic from 'next/dynamic';
import { can } from '@hdp/contract/permissions';
import { useCurrentUser } from '@/lib/auth/current-user';
import { LoadingStatus } from '@/components/loading-status';

const loading = (label: string) => () => <LoadingStatus label={label} padding={24} />;
// The table and the upload area carry most of the page's code: chunks of their own, rendered on the
// server (the table with its first page, `initialQueries`) and taken over once loaded.
// The upload area's place keeps its height (the drop zone and its note) while its code loads.
const loadingUpload = () => (
  <div style={{ minHeight: 187 }}>
    <LoadingStatus label="Loading the upload area" padding={24} />
  </div>
);
const DocumentUpload = dynamic(() => import('./document-upload').then((m) => m.DocumentUpload), { loading: loadingUpload });
const DocumentsTable = dynamic(() => import('./documents-table').then((m) => m.DocumentsTable), { loading: loading('Loading the documents') });

const PANEL = { background: '#ffffff', border: '1px solid #e5e8ec', borderRadius: 8, padding: 24 } as const;

/** The Documents page: upload a document, list, download and delete documents. */
export function DocumentsPage() {
  // The user the page was rendered with on the server: the upload area is there from the first paint
  // rather than appearing above the list (and pushing it down) once the browser has read the user.
  const me = useCurrentUser();
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
