import type { PayoutStatus } from '@payout/domain';

const STATUSES: readonly PayoutStatus[] = ['PENDING', 'SUCCESS', 'FAILED'];

/**
 * The form that lists a merchant's payouts by status and date range, or downloads them as a CSV statement:
 * on the merchant's page (today's dates) and on the list it leads to (the dates asked for).
 */
export function PayoutFilterForm(props: {
  /** The merchant's console path, /console/merchants/<mid>. */
  base: string;
  action?: string;
  status?: PayoutStatus | undefined;
  from: string;
  to: string;
}) {
  return (
    <form method="get" action={props.action} class="filters">
      <label>
        Status{' '}
        <select name="status">
          <option value="">any</option>
          {STATUSES.map((s) => (
            <option selected={s === props.status}>{s}</option>
          ))}
        </select>
      </label>
      <label>
        From <input type="date" name="from" value={props.from} />
      </label>
      <label>
        To <input type="date" name="to" value={props.to} />
      </label>
      <button type="submit">List</button>
      <button type="submit" formaction={`${props.base}/statement.csv`}>
        Download CSV statement
      </button>
    </form>
  );
}
