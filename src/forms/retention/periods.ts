/** spec 2.12 `retentionDays` default (a form without it, and a deleted form, whose settings are gone). */
export const DEFAULT_RETENTION_DAYS = 365;

/** spec 3.2 / 8: the spam folder's retention, from the moment a submission lands there. */
export const SPAM_RETENTION_DAYS = 30;
