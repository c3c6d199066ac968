/**
 * A merchant's own people on the merchant dashboard (docs/dashboard.md, "Roles"): apart from the staff
 * console's roles (console-roles.ts), since they see only their own merchant and change only its access.
 */
export const MERCHANT_USER_ROLES = ['OWNER', 'ADMIN', 'FINANCE', 'APPROVER', 'VIEWER'] as const;
export type MerchantUserRole = (typeof MERCHANT_USER_ROLES)[number];

/**
 * What a merchant user may do:
 * - `read`: the merchant's payouts, wallet and statement, downtimes, webhook deliveries, tokens (never a
 *   secret), allow-list and team;
 * - `pay`: send money: a bulk file, cancelling a payout not yet sent;
 * - `statements`: download statements and payout exports;
 * - `access`: the merchant's API tokens, webhook endpoint and IP allow-list;
 * - `team`: add people, change their roles, disable them, and read the merchant's audit of changes;
 * - `approve`: approve or reject the merchant's own payouts held for its review.
 */
export type MerchantPermission = 'read' | 'pay' | 'statements' | 'access' | 'team' | 'approve';

const MERCHANT_PERMISSIONS: Record<MerchantUserRole, readonly MerchantPermission[]> = {
  OWNER: ['read', 'pay', 'statements', 'access', 'team', 'approve'],
  ADMIN: ['read', 'access', 'team'],
  FINANCE: ['read', 'pay', 'statements'],
  APPROVER: ['read', 'statements', 'approve'],
  VIEWER: ['read'],
};

export function merchantMay(role: MerchantUserRole, permission: MerchantPermission): boolean {
  return MERCHANT_PERMISSIONS[role].includes(permission);
}

/** The permissions of a role, for the docs' table and the team page. */
export function merchantPermissionsOf(role: MerchantUserRole): readonly MerchantPermission[] {
  return MERCHANT_PERMISSIONS[role];
}

/** The roles an admin may give: the owner is made only when the operator onboards the merchant. */
export const ASSIGNABLE_MERCHANT_ROLES = [
  'ADMIN',
  'FINANCE',
  'APPROVER',
  'VIEWER',
] as const satisfies readonly MerchantUserRole[];

/** A merchant user's sign-in name: an e-mail address, lower case (the database CHECKs the same shape). */
export const MERCHANT_USER_EMAIL_PATTERN = /^[a-z0-9._%+-]{1,64}@[a-z0-9.-]{1,187}\.[a-z]{2,24}$/;

/** The e-mail address as stored, or undefined when it is not one. */
export function merchantUserEmail(input: string): string | undefined {
  const email = input.trim().toLowerCase();
  return email.length <= 254 && MERCHANT_USER_EMAIL_PATTERN.test(email) ? email : undefined;
}
