/**
 * The antd components whose styles the app's stylesheet holds (see `write-stylesheet.ts`): every
 * component the app or the query builder's antd controls import, and the ones those render inside
 * them (a table's pagination, dropdown and checkboxes; a popconfirm's popover; a form's grid).
 * A component missing here renders unstyled, so `antd-components.test.ts` fails when the source
 * imports one that is not listed.
 */
export const ANTD_COMPONENTS = [
  'Alert',
  'Badge',
  'Button',
  'Card',
  'Checkbox',
  'Col',
  'DatePicker',
  'Descriptions',
  'Divider',
  'Drawer',
  'Dropdown',
  'Empty',
  'Flex',
  'Form',
  'Input',
  'InputNumber',
  'List',
  'message',
  'Modal',
  'notification',
  'Pagination',
  'Popconfirm',
  'Popover',
  'Progress',
  'Radio',
  'Result',
  'Row',
  'Segmented',
  'Select',
  'Space',
  'Spin',
  'Steps',
  'Switch',
  'Table',
  'Tabs',
  'Tag',
  'Tooltip',
  'Typography',
  'Upload',
] as const;
