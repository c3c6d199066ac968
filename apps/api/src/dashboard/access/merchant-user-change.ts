import type { MerchantUserChange } from '@payout/use-cases';
import type { DashboardViewer } from '../dashboard-session.js';

/** Who makes a change of the merchant's access: the signed-in person, for both audit logs, and their merchant. */
export function changeOf(viewer: DashboardViewer): MerchantUserChange {
  return {
    merchantId: viewer.merchant.id,
    mid: viewer.merchant.mid,
    user: { id: viewer.user.id, email: viewer.user.email },
  };
}
