/** Who may do what on the admin listener and through the CLI (docs/operations.md, "Roles"). */
export const CONSOLE_ROLES = ['SUPPORT', 'OPERATOR', 'APPROVER'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

/**
 * What a person may do:
 * - `read`: every page, story and list;
 * - `act`: the actions that move no money and are harmless to repeat (replay a webhook, re-queue an
 *   inquiry, revoke a token, enable a webhook endpoint);
 * - `request`: ask for a money action (credit, manual resolution, a discrepancy's ledger resolution, a
 *   statement's settlements and reversals, a new merchant token, a merchant's bulk file), which waits for a
 *   second person;
 * - `approve`: approve or reject another person's request, which then runs.
 */
export type ConsolePermission = 'read' | 'act' | 'request' | 'approve';

const PERMISSIONS: Record<ConsoleRole, readonly ConsolePermission[]> = {
  SUPPORT: ['read'],
  OPERATOR: ['read', 'act', 'request'],
  APPROVER: ['read', 'act', 'request', 'approve'],
};

export function may(role: ConsoleRole, permission: ConsolePermission): boolean {
  return PERMISSIONS[role].includes(permission);
}

/** The permissions of a role, for the docs' table and the console's "signed in as" line. */
export function permissionsOf(role: ConsoleRole): readonly ConsolePermission[] {
  return PERMISSIONS[role];
}

/** Whether a person acts at all (the queue dashboard's full board, the action links). */
export function mayAct(role: ConsoleRole): boolean {
  return may(role, 'act');
}

/** Console usernames: lower-case letters, digits, `.`, `_` and `-` (the database CHECKs the same). */
export const CONSOLE_USERNAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/**
 * Four eyes need two approvers: an approval can never leave fewer than this many enabled (docs/operations.md,
 * "A new installation"). While fewer have enrolled, an installation is in setup.
 */
export const MIN_APPROVERS = 2;

/** Why taking an approver away (disabling them, another role) is refused, or undefined when it may go ahead. */
export function removingApproverProblem(enabledApprovers: number): string | undefined {
  if (enabledApprovers - 1 >= MIN_APPROVERS) return undefined;
  return `it would leave ${enabledApprovers - 1} enabled approver${enabledApprovers - 1 === 1 ? '' : 's'}: four eyes need at least ${MIN_APPROVERS}; add another approver first`;
}
