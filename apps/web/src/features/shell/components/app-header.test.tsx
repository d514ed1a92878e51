import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aUser } from '@/test-support/render';
import { AppHeader } from './app-header';

describe('the header', () => {
  it('links the product name home, and names the icon-only controls of a phone', () => {
    render(<AppHeader me={{ ...aUser({ roles: ['AUDITOR'] }), permissions: [] }} onOpenMenu={() => undefined} />);
    expect(screen.getByRole('link', { name: 'Health Data Platform: home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Sign out' })).toHaveAttribute('href', '/signout');
    expect(screen.getByRole('link', { name: 'Help centre' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open the menu' })).toBeInTheDocument();
    expect(screen.getByTestId('current-user')).toHaveTextContent('Ada LovelaceAuditor');
  });
});
