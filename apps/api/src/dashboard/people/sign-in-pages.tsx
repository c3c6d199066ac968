import { DASHBOARD_CSRF_FIELD } from '../dashboard-session.js';
import { DashboardPage } from '../dashboard-layout.js';

/** Where a merchant's person signs in, opens and finishes their own enrollment (docs/dashboard.md, "Enrollment"). */
export const DASHBOARD_LOGIN_PATH = '/dashboard/login';
export const DASHBOARD_LOGOUT_PATH = '/dashboard/logout';
export const DASHBOARD_ENROLL_PATH = '/dashboard/enroll';
export const DASHBOARD_ENROLL_FINISH_PATH = '/dashboard/enroll/finish';

function ErrorLine(props: { error?: string | undefined }) {
  return props.error ? (
    <p class="error" role="alert">
      {props.error}
    </p>
  ) : null;
}

function SignInCsrf(props: { csrfToken: string }) {
  return <input type="hidden" name={DASHBOARD_CSRF_FIELD} value={props.csrfToken} />;
}

export function DashboardLoginPage(props: { csrfToken: string; email?: string; error?: string }) {
  return (
    <DashboardPage title="Sign in">
      <ErrorLine error={props.error} />
      <form method="post" action={DASHBOARD_LOGIN_PATH} class="stack narrow">
        <SignInCsrf csrfToken={props.csrfToken} />
        <label for="email">E-mail</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          maxLength={254}
          value={props.email ?? ''}
          autofocus
        />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <label for="code">Code from your authenticator app (or a recovery code)</label>
        <input id="code" name="code" autocomplete="one-time-code" inputMode="numeric" maxLength={20} required />
        <button type="submit">Sign in</button>
      </form>
      <p>
        New here, or lost your password or phone? <a href={DASHBOARD_ENROLL_PATH}>Enroll yourself</a>.
      </p>
    </DashboardPage>
  );
}

/** The first step, on the person's own device: the e-mail they are to sign in with. */
export function DashboardEnrollStartPage(props: { csrfToken: string; error?: string }) {
  return (
    <DashboardPage title="Enroll yourself">
      <ErrorLine error={props.error} />
      <p>
        You choose your own password and set up your own authenticator app: nobody else ever sees them. Start here on
        your own device, then read the fingerprint this page shows you to the person adding you — your company&apos;s
        owner or admin, or, for the owner, your payout provider — in person or on a call. Once they have added you, come
        back here on this device to finish.
      </p>
      <form method="post" action={DASHBOARD_ENROLL_PATH} class="stack narrow">
        <SignInCsrf csrfToken={props.csrfToken} />
        <label for="email">Your e-mail</label>
        <input id="email" name="email" type="email" autocomplete="username" required maxLength={254} autofocus />
        <button type="submit">Start my enrollment</button>
      </form>
    </DashboardPage>
  );
}

/** Waiting to be added: the fingerprint to read out. */
export function DashboardEnrollWaitingPage(props: { email: string; fingerprint: string; expiresAt: string }) {
  return (
    <DashboardPage title="Your enrollment">
      <p>Read this fingerprint to the person adding you ({props.email}):</p>
      <p class="fingerprint">{props.fingerprint}</p>
      <p>
        When they have added you, come back to <a href={DASHBOARD_ENROLL_PATH}>this page</a> on this device to choose
        your password and set up your authenticator. This enrollment lasts until {props.expiresAt}.
      </p>
    </DashboardPage>
  );
}

/** Added: the person's own password and second factor, proved with a code. */
export function DashboardEnrollFinishPage(props: {
  csrfToken: string;
  email: string;
  seed: string;
  uri: string;
  error?: string;
}) {
  return (
    <DashboardPage title="Finish your enrollment">
      <ErrorLine error={props.error} />
      <p>
        Your account <strong>{props.email}</strong> is ready. Add this key to your authenticator app (or open the link
        on the phone that holds it), then choose your password and type the app&apos;s current code.
      </p>
      <p>
        <code class="secret">{props.seed.replace(/(.{4})/g, '$1 ').trim()}</code>
      </p>
      <p>
        <a href={props.uri}>Open in an authenticator app</a>
      </p>
      <form method="post" action={DASHBOARD_ENROLL_FINISH_PATH} class="stack narrow">
        <SignInCsrf csrfToken={props.csrfToken} />
        <input type="hidden" name="email" value={props.email} autocomplete="username" />
        <label for="password">Your password (at least 12 characters)</label>
        <input id="password" name="password" type="password" autocomplete="new-password" minLength={12} required />
        <label for="repeat">Your password again</label>
        <input id="repeat" name="repeat" type="password" autocomplete="new-password" minLength={12} required />
        <label for="code">The code your authenticator app shows now</label>
        <input id="code" name="code" autocomplete="one-time-code" inputMode="numeric" maxLength={6} required />
        <button type="submit">Finish</button>
      </form>
    </DashboardPage>
  );
}

/** Enrolled: the recovery codes, shown this once. */
export function DashboardEnrolledPage(props: { email: string; recoveryCodes: string[] }) {
  return (
    <DashboardPage title="You are enrolled">
      <p>
        Welcome, {props.email}. Keep these recovery codes somewhere safe and offline: each signs you in once in place of
        a code from your app, and they are never shown again.
      </p>
      <ul class="codes">
        {props.recoveryCodes.map((code) => (
          <li>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <p>
        <a href="/dashboard">Continue to the dashboard</a>
      </p>
    </DashboardPage>
  );
}
