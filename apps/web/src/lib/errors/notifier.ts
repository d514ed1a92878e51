import type { ReactNode } from 'react';

/** One toast. */
export interface Toast {
  type: 'error' | 'warning' | 'info' | 'success';
  title?: ReactNode;
  description?: ReactNode;
  /** Seconds; 0 keeps it open until closed. */
  duration?: number;
}

/** Shows toasts; the shell installs antd's notification API (bottom right), tests install a fake. */
export interface Notifier {
  show(toast: Toast): void;
}

let current: Notifier | null = null;
const waiting: Toast[] = [];

/** Installs the notifier; toasts raised before it existed are shown now. */
export function setNotifier(notifier: Notifier | null): void {
  current = notifier;
  if (notifier) waiting.splice(0).forEach((toast) => notifier.show(toast));
}

/** Shows a toast, or keeps it until a notifier is installed. */
export function showToast(toast: Toast): void {
  if (current) current.show(toast);
  else waiting.push(toast);
}
