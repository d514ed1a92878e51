import type { ReactNode } from 'react';
import { Flex } from 'antd';
import { BRAND } from '@/config/brand';

/** The frame of the sign-out and error pages: the product's mark and one card. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Flex component="main" align="center" justify="center" style={{ minHeight: '100vh', background: '#f5f7fa', padding: 16 }}>
      <section style={{ width: '100%', maxWidth: 420, background: '#ffffff', borderRadius: 8, padding: 32, boxShadow: '0 1px 4px rgba(0, 0, 0, 0.08)' }}>
        <Flex vertical align="center" gap={16}>
          <img src="/logo.svg" alt={BRAND.name} width={56} height={56} />
          <h1 style={{ fontSize: 22, fontWeight: 600, margin: 0, textAlign: 'center' }}>{title}</h1>
          {children}
        </Flex>
      </section>
    </Flex>
  );
}
