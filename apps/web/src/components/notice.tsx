import type { ReactNode } from 'react';

export type NoticeType = 'success' | 'warning' | 'error';

// A filled circle with a tick, an exclamation mark or a cross, in the notice's colour.
const GLYPHS: Record<NoticeType, string> = {
  success: 'M4.5 8.2 7 10.7l4.5-5',
  warning: 'M8 4v5M8 11.2v.3',
  error: 'M5.5 5.5l5 5M10.5 5.5l-5 5',
};

/**
 * An outcome or a problem in a few words, announced as it appears (`role="alert"`, as antd's
 * Alert is). Plain markup and CSS (`.hdp-notice` in global.css): the pages a signed-out person
 * opens first need no component library for it.
 */
export function Notice({ type, title, children }: { type: NoticeType; title: ReactNode; children?: ReactNode }) {
  return (
    <div role="alert" className={`hdp-notice hdp-notice-${type}`}>
      <svg viewBox="0 0 16 16" aria-hidden focusable="false">
        <circle cx="8" cy="8" r="8" fill="currentColor" />
        <path d={GLYPHS[type]} stroke="#ffffff" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" fill="none" />
      </svg>
      <div>
        <p className={children ? 'hdp-notice-title' : undefined}>{title}</p>
        {children ? <p>{children}</p> : null}
      </div>
    </div>
  );
}
