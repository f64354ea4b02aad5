/**
 * Sidebar links whose screens the spec does not show: they open the Under Construction page, in the
 * dashboard frame. Apart from the sidebar's data, which only the dashboard's code loads.
 */
export const unbuiltDashboardPaths = [
  '/student-attendance',
  '/student-attn-reports',
  '/employee-attendance',
  '/employee-attn-reports',
  '/attendance-devices',
  '/fees',
];
