import dynamic from 'next/dynamic';
import Link from 'next/link';
import { BRAND } from '@/config/brand';
import { LoadingStatus } from '@/components/loading-status';

// The cards, the table and the search (antd Table, Card, Segmented): a chunk of their own, rendered
// on the server with the list's first page (`initialQueries`) and taken over once loaded.
const WorkbenchesList = dynamic(() => import('./workbenches-list'), {
  loading: () => <LoadingStatus label="Loading the workbenches" padding={48} />,
});

const PANEL = { background: '#ffffff', border: '1px solid #e5e8ec', borderRadius: 8, padding: 24 } as const;
// A link styled as antd's primary button, so the page itself does not load Button.
const CREATE_LINK = {
  display: 'inline-flex', alignItems: 'center', height: 32, padding: '0 15px', borderRadius: 6,
  background: BRAND.primaryColor, color: '#ffffff', fontWeight: 500, textDecoration: 'none',
} as const;

/** The Workbenches page: the workbenches the user belongs to, and the way to create one. */
export function WorkbenchesPage() {
  return (
    <>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 12, marginBottom: 16 }}>
        <h1 style={{ fontSize: 24, fontWeight: 600, margin: 0 }}>Workbenches</h1>
        <Link href="/workbenches/new" style={CREATE_LINK}>
          Create workbench
        </Link>
      </div>
      <section style={PANEL} aria-label="Workbenches list">
        <WorkbenchesList />
      </section>
    </>
  );
}
