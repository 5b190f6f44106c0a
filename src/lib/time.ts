/** One day in milliseconds, for retention dates and day arithmetic on UTC instants. */
export const DAY_MS = 86_400_000;
