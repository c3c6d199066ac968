import { formatRupees } from '@payout/domain';

// How the console writes times and money: India Standard Time (support talks to merchants in India), and
// rupees with two decimals from integer paise.

const IST = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata',
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** "23 Nov 2026, 22:35:12 IST". */
export function ist(at: Date): string {
  return `${IST.format(at)} IST`;
}

/** How long from `since` to `at`, in the largest two units that matter: "3 min", "2 h 5 min", "850 ms". */
export function elapsed(since: Date, at: Date): string {
  const ms = at.getTime() - since.getTime();
  const abs = Math.abs(ms);
  const text =
    abs < 1_000
      ? `${abs} ms`
      : abs < 60_000
        ? `${Math.floor(abs / 1_000)} s`
        : abs < 3_600_000
          ? `${Math.floor(abs / 60_000)} min`
          : abs < 86_400_000
            ? `${Math.floor(abs / 3_600_000)} h ${Math.floor((abs % 3_600_000) / 60_000)} min`
            : `${Math.floor(abs / 86_400_000)} d ${Math.floor((abs % 86_400_000) / 3_600_000)} h`;
  return ms < 0 ? `-${text}` : text;
}

/** "₹1,234.50" style is avoided on purpose: support reads back the same digits the API shows ("1234.50"). */
export function rupees(paise: bigint): string {
  return `₹ ${formatRupees(paise)}`;
}

const IST_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;

/** Midnight IST of the day `at` falls on. */
export function istDayStart(at: Date): Date {
  const local = at.getTime() + IST_OFFSET_MS;
  return new Date(local - (local % 86_400_000) - IST_OFFSET_MS);
}

/** The IST calendar date of `at` as YYYY-MM-DD (for date inputs). */
export function istDate(at: Date): string {
  return new Date(at.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);
}

/** Midnight IST starting the calendar day `yyyyMmDd`, or undefined when it is not a real date. */
export function istMidnight(yyyyMmDd: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(yyyyMmDd)) return undefined;
  const utc = new Date(`${yyyyMmDd}T00:00:00.000Z`);
  if (Number.isNaN(utc.getTime()) || utc.toISOString().slice(0, 10) !== yyyyMmDd) return undefined;
  return new Date(utc.getTime() - IST_OFFSET_MS);
}
