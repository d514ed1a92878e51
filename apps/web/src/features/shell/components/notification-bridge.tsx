import { useEffect } from 'react';
import { notification } from 'antd';
import { TOAST_PLACEMENT } from '@/config/constants';
import { setNotifier, type Toast } from '@/lib/errors/notifier';

/**
 * The key of a toast made of text only: the same message again (two calls failing for the same
 * reason, a retry failing again) replaces the one on screen instead of stacking under it.
 */
export function toastKey({ type, title, description }: Toast): string | undefined {
  const text = (value: unknown) => value === undefined || typeof value === 'string';
  return text(title) && text(description) ? `${type}\u0000${title ?? ''}\u0000${description ?? ''}` : undefined;
}

/** Connects the app's toasts to antd's notifications (bottom right, themed by the ConfigProvider). */
export default function NotificationBridge() {
  const [api, holder] = notification.useNotification({ placement: TOAST_PLACEMENT });
  useEffect(() => {
    setNotifier({
      show: (toast) => api[toast.type]({ key: toastKey(toast), title: toast.title, description: toast.description, duration: toast.duration }),
    });
    return () => setNotifier(null);
  }, [api]);
  return holder;
}
