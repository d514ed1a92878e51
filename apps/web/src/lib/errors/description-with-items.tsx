import type { ReactNode } from 'react';

/** A notification's description followed by a labelled list, e.g. the parts of a change that were not applied. */
export function DescriptionWithItems({ description, items, label }: { description?: ReactNode; items: readonly string[]; label: string }) {
  return (
    <>
      {typeof description === 'string' ? <p style={{ margin: '0 0 8px' }}>{description}</p> : description}
      <p style={{ margin: '0 0 4px', fontWeight: 600 }}>{label}:</p>
      <ul aria-label={label} style={{ margin: 0, paddingInlineStart: 20 }}>
        {items.map((item, index) => (
          <li key={index}>{item}</li>
        ))}
      </ul>
    </>
  );
}
