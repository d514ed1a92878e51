import { Flex, Spin } from 'antd';

/**
 * A spinner that assistive technology announces: a `status` region named by `label`. antd's Spin
 * renders a plain div, on which a name alone is not allowed (axe: aria-prohibited-attr), so the
 * name goes on a region around it. With `padding`, the region is a centred block of its own, as a
 * page or panel shows while it loads.
 */
export function LoadingStatus({ label, size, padding }: { label: string; size?: 'small' | 'default' | 'large'; padding?: number }) {
  if (padding === undefined) {
    return (
      <span role="status" aria-label={label} style={{ display: 'inline-flex' }}>
        <Spin size={size} />
      </span>
    );
  }
  return (
    <Flex justify="center" role="status" aria-label={label} style={{ padding }}>
      <Spin size={size} />
    </Flex>
  );
}
