import { Empty } from 'antd';

const PANEL = { background: '#ffffff', border: '1px solid #e5e8ec', borderRadius: 8, padding: 24 } as const;

/** The placeholder of a page whose feature is not built yet. */
export function ComingSoon({ title, description }: { title: string; description: string }) {
  return (
    <>
      <h1 style={{ fontSize: 24, fontWeight: 600, margin: '0 0 16px' }}>{title}</h1>
      <section style={PANEL}>
        <Empty description={<span>{description} Coming soon.</span>} />
      </section>
    </>
  );
}
