import Link from 'next/link';
import { Button, Flex, Layout } from 'antd';
import { LogoutOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import type { Me } from '@hdp/contract';
import { BRAND } from '@/config/brand';
import { HELP_CENTRE_PATH } from '@/config/public-config';

const ROLE_LABELS: Record<string, string> = { ADMIN: 'Admin', DATA_STEWARD: 'Data steward', RESEARCHER: 'Researcher', AUDITOR: 'Auditor' };

const ROLE_BADGE = { marginInlineStart: 8, padding: '1px 8px', fontSize: 12, borderRadius: 4, background: '#eef1f4', border: '1px solid #d5dbe1' } as const;

/** The header: product name, help centre, the signed-in user and sign-out. */
export function AppHeader({ me, fallbackName }: { me?: Me; fallbackName?: string | null }) {
  const name = me?.name ?? fallbackName ?? me?.email ?? '';
  return (
    <Layout.Header style={{ paddingInline: 24, borderBottom: '1px solid #e5e8ec', display: 'flex', alignItems: 'center' }}>
      <Flex align="center" justify="space-between" style={{ width: '100%' }}>
        <Link href="/data-explorer" prefetch={false} style={{ display: 'flex', alignItems: 'center', gap: 12, color: 'inherit' }}>
          <img src="/logo.svg" alt="" width={32} height={32} />
          <strong style={{ fontSize: 18 }}>{BRAND.name}</strong>
        </Link>
        <Flex align="center" gap={16}>
          <a href={HELP_CENTRE_PATH} target="_blank" rel="noopener noreferrer">
            <QuestionCircleOutlined aria-hidden /> Help centre
          </a>
          <span data-testid="current-user">
            <span>{name}</span>
            {me?.roles.map((role) => (
              <span key={role} style={ROLE_BADGE}>
                {ROLE_LABELS[role] ?? role}
              </span>
            ))}
          </span>
          <Button href="/signout" icon={<LogoutOutlined />}>
            Sign out
          </Button>
        </Flex>
      </Flex>
    </Layout.Header>
  );
}
