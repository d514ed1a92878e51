import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SIDE_BAR_ITEMS, whyDisabled, activeItemKey } from '@/config/side-bar';
import { SideBar } from './side-bar';

const item = (name: string) => screen.getByRole('link', { name });

describe('the side bar', () => {
  it('enables every item for an administrator, except reviewing outputs (data stewards only), and marks the current one', () => {
    render(<SideBar actor={{ status: 'ACTIVE', roles: ['ADMIN'] }} pathname="/users" />);
    for (const { label } of SIDE_BAR_ITEMS.filter((i) => i.permission !== 'outputs:review')) expect(item(label)).not.toHaveAttribute('aria-disabled', 'true');
    expect(item('Review outputs')).toHaveAccessibleDescription('Only data stewards can open Review outputs.');
    expect(item('Users')).toHaveAttribute('href', '/users');
    expect(item('Users')).toHaveAttribute('aria-current', 'page');
    expect(item('Cohorts')).not.toHaveAttribute('aria-current');
  });

  it('disables what a researcher may not open, keeping it visible, and says who may', () => {
    render(<SideBar actor={{ status: 'ACTIVE', roles: ['RESEARCHER'] }} pathname="/data-explorer" />);
    expect(item('Users')).toHaveAttribute('aria-disabled', 'true');
    expect(item('Users')).not.toHaveAttribute('href');
    expect(item('Users')).toHaveAccessibleDescription('Only administrators can open Users.');
    expect(item('Audit Log')).toHaveAttribute('aria-disabled', 'true');
    expect(item('Workbenches')).not.toHaveAttribute('aria-disabled', 'true');
  });

  it('disables everything for a disabled account', () => {
    render(<SideBar actor={{ status: 'DISABLED', roles: ['ADMIN'] }} pathname="/" />);
    for (const { label } of SIDE_BAR_ITEMS) expect(item(label)).toHaveAttribute('aria-disabled', 'true');
  });

  it('says who may open a disabled item, from the permission matrix', () => {
    expect(whyDisabled({ label: 'Users', permission: 'users:list' })).toBe('Only administrators can open Users.');
    expect(whyDisabled({ label: 'Audit Log', permission: 'auditLog:read' })).toBe('Only administrators and auditors can open Audit Log.');
    expect(whyDisabled({ label: 'Cohorts', permission: 'cohorts:list' })).toBe('Only administrators, data stewards and researchers can open Cohorts.');
  });

  it('marks the item of the current route', () => {
    expect(activeItemKey('/workbenches/123')).toBe('workbenches');
    expect(activeItemKey('/cohorts')).toBe('cohorts');
    expect(activeItemKey('/signout')).toBeUndefined();
  });
});
