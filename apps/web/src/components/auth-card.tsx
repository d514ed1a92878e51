import type { ReactNode } from 'react';
import { BRAND } from '@/config/brand';

/**
 * The frame of the sign-out, error and accept-invitation pages: the product's mark and one card.
 * Plain markup and CSS (`.hdp-auth-*` in global.css), drawn before any component library loads.
 * `top` keeps the card's top in place (it grows downwards) for content that arrives after the first
 * paint; otherwise the card is centred on the screen.
 */
export function AuthCard({ title, children, top = false }: { title: string; children: ReactNode; top?: boolean }) {
  return (
    <main className={top ? 'hdp-auth-page hdp-auth-page-top' : 'hdp-auth-page'}>
      <section className="hdp-auth-card">
        <img src="/logo.svg" alt={BRAND.name} width={56} height={56} />
        <h1>{title}</h1>
        {children}
      </section>
    </main>
  );
}
