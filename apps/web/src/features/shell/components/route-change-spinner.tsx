import { useEffect, useState } from 'react';
import { useRouter } from 'next/router';
import { FullPageSpinner } from '@/components/full-page-spinner';

/** Locks page scrolling; gives back the function that restores it. */
function lockScroll(): () => void {
  const { overflow } = document.body.style;
  document.body.style.overflow = 'hidden';
  return () => {
    document.body.style.overflow = overflow;
  };
}

/**
 * During a route change: a full-page spinner, and page scrolling locked. Both end when the
 * change completes or fails.
 */
export function RouteChangeSpinner() {
  const router = useRouter();
  const [changing, setChanging] = useState(false);

  useEffect(() => {
    let unlock: (() => void) | null = null;
    const start = (_url: string, { shallow }: { shallow: boolean }) => {
      if (shallow) return;
      unlock ??= lockScroll();
      setChanging(true);
    };
    const end = () => {
      unlock?.();
      unlock = null;
      setChanging(false);
    };
    router.events.on('routeChangeStart', start);
    router.events.on('routeChangeComplete', end);
    router.events.on('routeChangeError', end);
    return () => {
      router.events.off('routeChangeStart', start);
      router.events.off('routeChangeComplete', end);
      router.events.off('routeChangeError', end);
      end();
    };
  }, [router.events]);

  return changing ? <FullPageSpinner label="Loading page" testId="route-change-spinner" /> : null;
}
