import type { Permission } from '../lib/authorization.tsx';

export interface SidebarLink {
  to: string;
  label: string;
  badge?: string;
  /** Shown only to a role that may use the screen; no permission: every staff member. */
  permission?: Permission;
}

export interface SidebarGroup {
  title: string;
  links: SidebarLink[];
}

/** The spec's sidebar: General, Users, WISE, Attendance and Fees (DESIGN section 7). */
export const sidebar: SidebarGroup[] = [
  {
    title: 'General',
    links: [
      { to: '/dashboard', label: 'Admin Orders', permission: 'orders:process' },
      { to: '/dashboard/tickets', label: 'Support Tickets', permission: 'orders:process' },
      { to: '/dashboard/admin-services', label: 'Services', permission: 'services:manage' },
      { to: '/dashboard/add-services', label: 'Add Service', permission: 'services:manage' },
      { to: '/dashboard/settings', label: 'Settings', permission: 'settings:manage' },
      { to: '/dashboard/payments', label: 'Payments', permission: 'settings:manage' },
      { to: '/dashboard/coupons', label: 'Coupons', permission: 'settings:manage' },
      { to: '/dashboard/api-keys', label: 'API Keys', permission: 'settings:manage' },
    ],
  },
  { title: 'Users', links: [{ to: '/dashboard/admin-users', label: 'User Management', permission: 'users:manage' }] },
  {
    title: 'WISE',
    links: [
      { to: '/dashboard/all-wise-stocks', label: 'All Wise Stocks' },
      { to: '/dashboard/add-wise-stocks', label: 'Add Wise Stock', permission: 'stocks:manage' },
      { to: '/dashboard/import-wise-stocks', label: 'Import Wise Stock', permission: 'stocks:manage' },
    ],
  },
  {
    title: 'Attendance',
    links: [
      { to: '/student-attendance', label: 'Student Attendance' },
      { to: '/student-attn-reports', label: 'Student Attn Reports', badge: '5' },
      { to: '/employee-attendance', label: 'Employee Attendance' },
      { to: '/employee-attn-reports', label: 'Employee Attn Reports' },
      { to: '/attendance-devices', label: 'Attendance Devices' },
    ],
  },
  { title: 'Fees', links: [{ to: '/fees', label: 'Fees' }] },
];

/** The sidebar as one role sees it: no link to a screen it cannot use, no group left empty. */
export function sidebarFor(can: (permission: Permission) => boolean): SidebarGroup[] {
  return sidebar
    .map((group) => ({ ...group, links: group.links.filter((link) => !link.permission || can(link.permission)) }))
    .filter((group) => group.links.length > 0);
}
