import type { ThemeConfig } from 'antd';
import { BRAND } from '@/config/brand';

/** The antd theme of the product. */
export const THEME: ThemeConfig = {
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
  components: {
    Layout: { siderBg: '#ffffff', headerBg: '#ffffff', bodyBg: '#f5f7fa' },
    // Opaque selection colours: the translucent defaults are measured (and read) as low contrast.
    Menu: { itemSelectedBg: '#e3edf2', itemSelectedColor: BRAND.primaryColor, itemHoverBg: '#f0f4f6' },
  },
};
