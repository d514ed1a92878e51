/**
 * A spinner that assistive technology announces: a `status` region named by `label`. With
 * `padding`, the region is a centred block of its own, as a page or panel shows while it loads.
 * Plain markup and CSS (`.hdp-spinner` in global.css): the shell shows it on every page's first
 * paint, before any component library has loaded.
 */
export function LoadingStatus({ label, size = 'default', padding }: { label: string; size?: 'small' | 'default' | 'large'; padding?: number }) {
  const spinner = <span className={`hdp-spinner hdp-spinner-${size}`} aria-hidden />;
  if (padding === undefined) {
    return (
      <span role="status" aria-label={label} aria-busy="true" style={{ display: 'inline-flex' }}>
        {spinner}
      </span>
    );
  }
  return (
    <div role="status" aria-label={label} aria-busy="true" style={{ display: 'flex', justifyContent: 'center', padding }}>
      {spinner}
    </div>
  );
}
