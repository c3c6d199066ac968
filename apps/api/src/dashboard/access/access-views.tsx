import type { ComponentChildren } from 'preact';
import { DashboardCsrf } from '../dashboard-layout.js';
import type { DashboardViewer } from '../dashboard-session.js';

/** Why a form was refused, read out by a screen reader as the page loads. */
export function RefusalAlert(props: { children: ComponentChildren }) {
  return (
    <p class="error" role="alert">
      {props.children}
    </p>
  );
}

/**
 * One row's action in a table (revoke this token, send this delivery again): a form of its own with the row's
 * id, and a button whose accessible name says which row, since every row's button reads the same.
 */
export function RowActionForm(props: {
  viewer: DashboardViewer;
  action: string;
  field: string;
  value: string;
  label: string;
  children: ComponentChildren;
}) {
  return (
    <form method="post" action={props.action}>
      <DashboardCsrf viewer={props.viewer} />
      <input type="hidden" name={props.field} value={props.value} />
      <button type="submit" aria-label={props.label}>
        {props.children}
      </button>
    </form>
  );
}
