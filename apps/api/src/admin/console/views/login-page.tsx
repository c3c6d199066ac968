import { CSRF_FIELD } from '../console-session.js';
import { Page } from './layout.js';

/** Where a person whose password was made for them chooses their own (a public post, as sign-in is). */
export const CHANGE_PASSWORD_PATH = '/console/login/password';

export function LoginPage(props: { csrfToken: string; username?: string; error?: string }) {
  return (
    <Page title="Sign in">
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      <form method="post" action="/console/login" class="stack narrow">
        <input type="hidden" name={CSRF_FIELD} value={props.csrfToken} />
        <label for="username">Username</label>
        <input id="username" name="username" autocomplete="username" required value={props.username ?? ''} autofocus />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit">Sign in</button>
      </form>
    </Page>
  );
}

/**
 * The only thing a person whose password was made for them (added, or reset, on approval) may do: choose
 * their own, giving the one-time password once more (docs/operations.md, "Security model").
 */
export function ChangePasswordPage(props: { csrfToken: string; username: string; error?: string }) {
  return (
    <Page title="Choose your password">
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      <p>
        Your password was made for you and someone else has seen it. Choose your own before you go on: until you do, you
        cannot use the console, sign in to the CLI or create a key.
      </p>
      <form method="post" action={CHANGE_PASSWORD_PATH} class="stack narrow">
        <input type="hidden" name={CSRF_FIELD} value={props.csrfToken} />
        <input type="hidden" name="username" value={props.username} autocomplete="username" />
        <label for="password">One-time password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <label for="newPassword">New password (at least 12 characters)</label>
        <input
          id="newPassword"
          name="newPassword"
          type="password"
          autocomplete="new-password"
          minLength={12}
          required
        />
        <label for="repeat">New password again</label>
        <input id="repeat" name="repeat" type="password" autocomplete="new-password" minLength={12} required />
        <button type="submit">Choose this password</button>
      </form>
    </Page>
  );
}
