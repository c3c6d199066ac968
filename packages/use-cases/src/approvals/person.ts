import type { ConsoleRole } from '@payout/domain';

/** A console user acting through one of the doors: the console, the CLI or the admin JSON API. */
export interface Person {
  username: string;
  role: ConsoleRole;
  via: 'console' | 'cli' | 'admin-api';
}

/** How the audit log names a person: "console:asha", "cli:asha". */
export function actorOf(person: Pick<Person, 'username' | 'via'>): string {
  return `${person.via}:${person.username}`;
}
