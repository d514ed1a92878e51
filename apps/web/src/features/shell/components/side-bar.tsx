import Link from 'next/link';
import { can, type Actor } from '@hdp/contract/permissions';
import { activeItemKey, SIDE_BAR_ITEMS, whyDisabled } from '@/config/side-bar';

/**
 * The side bar, built from SIDE_BAR_ITEMS: a list of links, the current one marked
 * `aria-current="page"`. An item the user's roles do not allow stays visible but disabled, with a
 * tooltip (on hover and on keyboard focus) saying who may open it. Plain markup and CSS: it is on
 * every page, and a menu component's script would be paid for on each one.
 */
export function SideBar({ actor, pathname }: { actor: Actor | null; pathname: string }) {
  const selected = activeItemKey(pathname);
  return (
    <nav aria-label="Main" className="hdp-side-nav">
      <ul>
        {SIDE_BAR_ITEMS.map((item) => {
          const Icon = item.icon;
          const content = (
            <>
              <Icon aria-hidden />
              <span>{item.label}</span>
            </>
          );
          if (!can(actor, item.permission)) {
            const tipId = `side-bar-why-${item.key}`;
            return (
              <li key={item.key} className="hdp-side-disabled">
                <span role="link" aria-disabled="true" tabIndex={0} aria-describedby={tipId} className="hdp-side-item" data-testid={`side-bar-disabled-${item.key}`}>
                  {content}
                </span>
                <span role="tooltip" id={tipId} className="hdp-tip">
                  {whyDisabled(item)}
                </span>
              </li>
            );
          }
          return (
            <li key={item.key}>
              <Link href={item.route} prefetch={false} className="hdp-side-item" aria-current={item.key === selected ? 'page' : undefined}>
                {content}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
