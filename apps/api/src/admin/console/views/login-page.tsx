import { CSRF_FIELD } from '../console-session.js';
import { Page } from './layout.js';

/** Where a person opens, follows and finishes their own enrollment (docs/operations.md, "People and roles"). */
export const ENROLL_PATH = '/console/enroll';
export const ENROLL_FINISH_PATH = '/console/enroll/finish';

function ErrorLine(props: { error?: string | undefined }) {
  return props.error ? (
    <p class="error" role="alert">
      {props.error}
    </p>
  ) : null;
}

export function LoginPage(props: { csrfToken: string; username?: string; error?: string }) {
  return (
    <Page title="Sign in">
      <ErrorLine error={props.error} />
      <form method="post" action="/console/login" class="stack narrow">
        <input type="hidden" name={CSRF_FIELD} value={props.csrfToken} />
        <label for="username">Username</label>
        <input id="username" name="username" autocomplete="username" required value={props.username ?? ''} autofocus />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <label for="code">Code from your authenticator app (or a recovery code)</label>
        <input id="code" name="code" autocomplete="one-time-code" inputMode="numeric" maxLength={20} />
        <button type="submit">Sign in</button>
      </form>
      <p>
        New here, or lost your password or authenticator? <a href={ENROLL_PATH}>Enroll yourself</a>.
      </p>
    </Page>
  );
}

/** The first step: the name someone is asking for, on this person's own device. */
export function EnrollStartPage(props: { csrfToken: string; error?: string }) {
  return (
    <Page title="Enroll yourself">
      <ErrorLine error={props.error} />
      <p>
        You choose your own password and set up your own authenticator app: nobody else ever sees them. Start here on
        your own device, then read the fingerprint this page shows you to the person adding you (or resetting your
        account), in person or on a call. Once another approver approves, come back here on this device to finish.
      </p>
      <form method="post" action={ENROLL_PATH} class="stack narrow">
        <input type="hidden" name={CSRF_FIELD} value={props.csrfToken} />
        <label for="username">Your username</label>
        <input id="username" name="username" autocomplete="username" required maxLength={64} autofocus />
        <button type="submit">Start my enrollment</button>
      </form>
    </Page>
  );
}

/** Waiting for the request naming this enrollment to be approved: the fingerprint to read out. */
export function EnrollWaitingPage(props: { username: string; fingerprint: string; expiresAt: string }) {
  return (
    <Page title="Your enrollment">
      <p>Read this fingerprint to the person asking for your account ({props.username}):</p>
      <p class="fingerprint">{props.fingerprint}</p>
      <p>
        They put it in their request, and the approver checks it with you before approving. When it is approved, come
        back to <a href={ENROLL_PATH}>this page</a> on this device to choose your password and set up your
        authenticator. This enrollment lasts until {props.expiresAt}.
      </p>
    </Page>
  );
}

/** Approved: the person's own password and second factor, proved with a code. */
export function EnrollFinishPage(props: {
  csrfToken: string;
  username: string;
  seed: string;
  uri: string;
  error?: string;
}) {
  return (
    <Page title="Finish your enrollment">
      <ErrorLine error={props.error} />
      <p>
        Your account <strong>{props.username}</strong> is approved. Add this key to your authenticator app (or open the
        link on the phone that holds it), then choose your password and type the app&apos;s current code.
      </p>
      <p>
        <code class="secret">{props.seed.replace(/(.{4})/g, '$1 ').trim()}</code>
      </p>
      <p>
        <a href={props.uri}>Open in an authenticator app</a>
      </p>
      <form method="post" action={ENROLL_FINISH_PATH} class="stack narrow">
        <input type="hidden" name={CSRF_FIELD} value={props.csrfToken} />
        <input type="hidden" name="username" value={props.username} autocomplete="username" />
        <label for="password">Your password (at least 12 characters)</label>
        <input id="password" name="password" type="password" autocomplete="new-password" minLength={12} required />
        <label for="repeat">Your password again</label>
        <input id="repeat" name="repeat" type="password" autocomplete="new-password" minLength={12} required />
        <label for="code">The code your authenticator app shows now</label>
        <input id="code" name="code" autocomplete="one-time-code" inputMode="numeric" maxLength={6} required />
        <button type="submit">Finish</button>
      </form>
    </Page>
  );
}

/** Enrolled: the recovery codes, shown this once. */
export function EnrolledPage(props: { username: string; recoveryCodes: string[]; setupComplete: boolean }) {
  return (
    <Page title="You are enrolled">
      <p>
        Welcome, {props.username}. Keep these recovery codes somewhere safe and offline: each signs you in or approves
        once in place of a code from your app, and they are never shown again.
      </p>
      <ul class="codes">
        {props.recoveryCodes.map((code) => (
          <li>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      {props.setupComplete && <p>Two approvers have now enrolled: this installation has finished its setup.</p>}
      <p>
        <a href="/console">Continue to the console</a>
      </p>
    </Page>
  );
}
