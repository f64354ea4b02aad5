import { DashboardLayout } from './dashboard-layout.tsx';
import { StaffGuard } from './staff-guard.tsx';

/** The dashboard's frame behind its guard: loaded with the first dashboard route, never on the storefront. */
export function DashboardFrame() {
  return (
    <StaffGuard>
      <DashboardLayout />
    </StaffGuard>
  );
}
