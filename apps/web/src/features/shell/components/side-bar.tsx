import Link from 'next/link';
import { Menu, Tooltip, type MenuProps } from 'antd';
import { can, type Actor } from '@hdp/contract/permissions';
import { activeItemKey, SIDE_BAR_ITEMS, whyDisabled } from '@/config/side-bar';

/**
 * The side bar, built from SIDE_BAR_ITEMS. An item the user's roles do not allow stays visible
 * but disabled, with a tooltip saying who may open it.
 */
export function SideBar({ actor, pathname }: { actor: Actor | null; pathname: string }) {
  const items: MenuProps['items'] = SIDE_BAR_ITEMS.map((item) => {
    const Icon = item.icon;
    const allowed = can(actor, item.permission);
    return {
      key: item.key,
      icon: <Icon aria-hidden />,
      disabled: !allowed,
      label: allowed ? (
        <Link href={item.route} prefetch={false} style={{ color: 'inherit' }}>
          {item.label}
        </Link>
      ) : (
        <Tooltip title={whyDisabled(item)} placement="right">
          <span data-testid={`side-bar-disabled-${item.key}`}>{item.label}</span>
        </Tooltip>
      ),
    };
  });
  const selected = activeItemKey(pathname);
  return (
    <nav aria-label="Main">
      <Menu mode="inline" items={items} selectedKeys={selected ? [selected] : []} style={{ borderInlineEnd: 'none' }} />
    </nav>
  );
}
