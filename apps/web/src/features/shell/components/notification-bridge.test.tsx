import { describe, expect, it } from 'vitest';
import { toastKey } from './notification-bridge';

describe('toasts', () => {
  it('key text toasts by their content, so the same message replaces the one on screen', () => {
    const toast = { type: 'error' as const, title: 'Unable to reach the server', description: 'Check your network connection and try again in a moment.' };
    expect(toastKey(toast)).toBe(toastKey({ ...toast }));
    expect(toastKey(toast)).not.toBe(toastKey({ ...toast, title: 'Something else' }));
    expect(toastKey({ type: 'error', title: 'x', description: <a href="/">refresh</a> })).toBeUndefined();
  });
});
