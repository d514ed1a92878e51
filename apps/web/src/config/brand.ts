/** The product's name and colours, shared by the antd theme and the sign-in page. */
export const BRAND = {
  name: 'Health Data Platform',
  shortName: 'HDP',
  primaryColor: '#0b4f6c',
} as const;
