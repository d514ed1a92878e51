import { Tag } from 'antd';

/** A cohort's tags, or nothing when it has none. */
export function CohortTagList({ tags, label = 'Tags' }: { tags: readonly string[]; label?: string }) {
  if (tags.length === 0) return null;
  return (
    <ul aria-label={label} style={{ listStyle: 'none', padding: 0, margin: 0, display: 'flex', flexWrap: 'wrap', gap: 4 }}>
      {tags.map((tag) => (
        <li key={tag}>
          <Tag style={{ marginInlineEnd: 0, color: '#1f2933' }}>{tag}</Tag>
        </li>
      ))}
    </ul>
  );
}
