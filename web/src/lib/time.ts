// Dates as the member pages show and filter them: Unix seconds to text, a picked range to
// seconds or to days.
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';

/** The Unix seconds of a date range, from the first second of its first day to the last of its last. */
export function dayRange(range: [Dayjs | null, Dayjs | null] | null): { start?: number; end?: number } {
  if (!range) return {};
  const [from, to] = range;
  return {
    start: from ? from.startOf('day').unix() : undefined,
    end: to ? to.endOf('day').unix() : undefined,
  };
}

/** The days of a date range as `YYYY-MM-DD`, both included: what the wallet's logs filter by
 * (the origin reads them as days of the shop, China's time). */
export function dateRange(range: [Dayjs | null, Dayjs | null] | null): { start?: string; end?: string } {
  if (!range) return {};
  const [from, to] = range;
  return { start: from ? from.format('YYYY-MM-DD') : undefined, end: to ? to.format('YYYY-MM-DD') : undefined };
}

export function formatTime(seconds: number): string {
  return dayjs.unix(seconds).format('YYYY-MM-DD HH:mm:ss');
}
