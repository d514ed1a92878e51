import Link from 'next/link';
import { LogoutOutlined, MenuOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import type { Me } from '@hdp/contract';
import { BRAND } from '@/config/brand';
import { HELP_CENTRE_PATH } from '@/config/public-config';

const ROLE_LABELS: Record<string, string> = { ADMIN: 'Admin', DATA_STEWARD: 'Data steward', RESEARCHER: 'Researcher', AUDITOR: 'Auditor' };

/**
 * The header: the menu button (narrow screens), product name (a link home), help centre, the
 * signed-in user (a link to the account page) and sign-out. On a phone it stays one line: the short product name, the help
 * centre and sign-out as icons with their names for assistive technology, the user's name cut
 * with an ellipsis and the role badges left out. Plain markup and CSS, like the side bar: it is on
 * every page.
 */
export function AppHeader({ me, fallbackName, onOpenMenu }: { me?: Me; fallbackName?: string | null; onOpenMenu?: () => void }) {
  const name = me?.name ?? fallbackName ?? me?.email ?? '';
  return (
    <header className="hdp-header">
      {onOpenMenu ? (
        <button type="button" className="hdp-nav-toggle hdp-header-button hdp-header-button-text" aria-label="Open the menu" onClick={onOpenMenu}>
          <MenuOutlined aria-hidden />
        </button>
      ) : null}
      <Link href="/" prefetch={false} className="hdp-brand" aria-label={`${BRAND.name}: home`}>
        <img src="/logo.svg" alt="" width={32} height={32} />
        <strong className="hdp-brand-full">{BRAND.name}</strong>
        <strong className="hdp-brand-short">{BRAND.shortName}</strong>
      </Link>
      <div className="hdp-header-end">
        <a href={HELP_CENTRE_PATH} target="_blank" rel="noopener noreferrer" className="hdp-help-link" aria-label="Help centre">
          <QuestionCircleOutlined aria-hidden /> <span className="hdp-wide-only">Help centre</span>
        </a>
        <Link href="/account" prefetch={false} data-testid="current-user" className="hdp-current-user" title={`${name}: your account`}>
          <span className="hdp-user-name">{name}</span>
          {me?.roles.map((role) => (
            <span key={role} className="hdp-role-badge">
              {ROLE_LABELS[role] ?? role}
            </span>
          ))}
        </Link>
        <a href="/signout" aria-label="Sign out" className="hdp-sign-out hdp-header-button">
          <LogoutOutlined aria-hidden />
          <span className="hdp-wide-only">Sign out</span>
        </a>
      </div>
    </header>
  );
}
