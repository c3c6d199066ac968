import type { ComponentChildren } from 'preact';
import type { Viewer } from '../console-session.js';
import { Csrf, Page } from './layout.js';

/**
 * The confirmation of an operator action: what will happen, the inputs it needs, and a "why" that goes to
 * the audit log. Nothing happens until it is submitted.
 */
export interface ActionPageProps {
  viewer: Viewer;
  title: string;
  action: string;
  back: string;
  explanation: ComponentChildren;
  fields?: ComponentChildren;
  confirm: string;
  error?: string | undefined;
}

export function ActionPage(props: ActionPageProps) {
  return (
    <Page title={props.title} viewer={props.viewer}>
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      <div class="explain">{props.explanation}</div>
      <form method="post" action={props.action} class="stack">
        <Csrf viewer={props.viewer} />
        {props.fields}
        <label for="why">Why (written to the audit log)</label>
        <textarea id="why" name="why" required maxLength={400} rows={3} />
        <div class="row">
          <button type="submit">{props.confirm}</button>
          <a href={props.back}>Cancel</a>
        </div>
      </form>
    </Page>
  );
}
