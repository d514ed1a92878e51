import type { ReactNode } from 'react';

export interface RecordFact {
  key: string;
  label: string;
  children: ReactNode;
}

/**
 * A record's facts (author, dates, version…) as a bordered list of label and value, one column on a
 * phone, two on a tablet, three on a desktop. Plain markup whose columns follow the screen through
 * CSS (global.css): the server renders it as the browser will show it, so nothing moves when the
 * page comes to life, as it did with a component that chose its columns in script.
 */
export function RecordFacts({ items, label }: { items: RecordFact[]; label: string }) {
  return (
    <dl className="hdp-record-facts" aria-label={label}>
      {items.map((item) => (
        <div key={item.key} className="hdp-record-fact">
          <dt>{item.label}</dt>
          <dd>{item.children}</dd>
        </div>
      ))}
    </dl>
  );
}
