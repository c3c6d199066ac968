/** Who may do what in the support console (docs/operations.md, "Support console"). */
export const CONSOLE_ROLES = ['SUPPORT', 'OPERATOR'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

/** Support staff read; operators also act (resolve, replay, re-queue, credit, rotate and revoke tokens). */
export function mayAct(role: ConsoleRole): boolean {
  return role === 'OPERATOR';
}

/** Console usernames: lower-case letters, digits, `.`, `_` and `-` (the database CHECKs the same). */
export const CONSOLE_USERNAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
