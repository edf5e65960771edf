// Dates as the member pages show and filter them: Unix seconds to text, a picked range to seconds.
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

export function formatTime(seconds: number): string {
  return dayjs.unix(seconds).format('YYYY-MM-DD HH:mm:ss');
}
