// Stable Message-IDs (RFC 5322 3.6.4): one per notification job, so a message sent again after a crash between
// "accepted" and "recorded" carries the Message-ID of the first, and receivers drop the copy
// (docs/operations.md "Notifications").

/** The domain of MAIL_FROM (`Folio <forms@example.com>` → `example.com`); `localhost` when it has none. */
export function mailDomain(from: string): string {
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from;
  const at = address.lastIndexOf('@');
  const domain = at < 0 ? '' : address.slice(at + 1).trim();
  return /^[A-Za-z0-9.-]+$/.test(domain) ? domain.toLowerCase() : 'localhost';
}

/** `<job id>@<domain of MAIL_FROM>`, without angle brackets. Job ids are `sub_…` plus dot-separated atoms. */
export function messageIdFor(jobId: string, from: string): string {
  return `${jobId.replace(/[^A-Za-z0-9._-]/g, '-')}@${mailDomain(from)}`;
}
