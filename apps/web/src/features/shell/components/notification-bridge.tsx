import { useEffect } from 'react';
import { notification } from 'antd';
import { TOAST_PLACEMENT } from '@/config/constants';
import { setNotifier } from '@/lib/errors/notifier';

/** Connects the app's toasts to antd's notifications (bottom right, themed by the ConfigProvider). */
export default function NotificationBridge() {
  const [api, holder] = notification.useNotification({ placement: TOAST_PLACEMENT });
  useEffect(() => {
    setNotifier({
      show: ({ type, title, description, duration }) => api[type]({ title, description, duration }),
    });
    return () => setNotifier(null);
  }, [api]);
  return holder;
}
