import fs from 'node:fs';
import path from 'node:path';
import { createElement } from 'react';
import { ConfigProvider } from 'antd';
import { extractStyle } from '@ant-design/static-style-extract';
import { THEME } from '../theme';
import { ANTD_COMPONENTS } from './antd-components';

/** Where the stylesheet is written; `_app.tsx` imports it (generated, not committed). */
export const ANTD_STYLESHEET = path.join(__dirname, '..', 'generated', 'antd.css');

/**
 * antd runs in zero-runtime mode (see `theme.ts`): its components compute no styles in the
 * browser, so their CSS must come from a stylesheet. This renders each component the app uses
 * once, with the product's theme, and writes the styles antd produced to one file. Run by
 * `next.config.ts`, so every `next dev`, `next build` and `next start` has it, and only rewritten
 * when the theme, the list or antd changed what it holds.
 */
export function writeAntdStylesheet(file = ANTD_STYLESHEET): void {
  const css = extractStyle({
    includes: [...ANTD_COMPONENTS],
    customTheme: (node) => createElement(ConfigProvider, { theme: THEME }, node),
  });
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === css) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, css);
}

