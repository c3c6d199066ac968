import { CSRF_FIELD } from '../console-session.js';
import { Page } from './layout.js';

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
