import type { ThemeConfig } from 'antd';
// Relative: next.config.ts loads this file (through the stylesheet writer) without the `@/` alias.
import { BRAND } from '../config/brand';

/**
 * The antd theme of the product. `hashed: false` leaves antd's class names unscoped, and a fixed
 * `cssVar.key` names the class that carries the theme's CSS variables (antd would otherwise make one
 * per provider from React's `useId`), so the stylesheet written at build time
 * (`antd-styles/write-stylesheet.ts`) matches the components' classes and variables in the browser.
 */
export const THEME: ThemeConfig = {
  hashed: false,
  cssVar: { key: 'hdp-theme' },
  token: {
    colorPrimary: BRAND.primaryColor,
    colorLink: BRAND.primaryColor,
    borderRadius: 6,
    // antd's defaults (45 % black) fall short of WCAG AA contrast on white.
    colorTextDescription: 'rgba(0, 0, 0, 0.65)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.65)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.6)',
    // antd's red (#ff4d4f) under white text, as on danger buttons, is 3.3:1; this is 5.6:1.
    colorError: '#cf1322',
    fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  },
};

/**
 * The theme the browser runs with: zero-runtime, so components compute no CSS at start-up (the
 * costliest part of antd's start on a slow phone); their styles come from the build-time sheet.
 */
export const RUNTIME_THEME: ThemeConfig = { ...THEME, zeroRuntime: true };
