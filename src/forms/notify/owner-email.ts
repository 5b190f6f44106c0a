// The notification email to the form's owners (spec 3.2 "emailed to notification addresses", 4.4 rule 6). Plain
// text; files are links to the management download, never attachments and never public URLs (spec 3.3).

import { type Answer, formatSize } from './answers.js';

export interface OwnerEmailInput {
  formName: string;
  formKey: string;
  submissionId: string;
  answers: readonly Answer[];
  page: string | null;
  submittedAt: string;
  locale: string;
  /** Whether the message has a Reply-To (the visitor's address). */
  replyToVisitor: boolean;
  /** The management download of one file (needs a management token). */
  fileUrl: (uploadId: string) => string;
}

/** One line of a header or a label: line breaks would end it early. */
const oneLine = (text: string): string => text.replace(/[\r\n]+/g, ' ').trim();

export function ownerEmail(input: OwnerEmailInput): { subject: string; text: string } {
  const name = oneLine(input.formName) || input.formKey;
  const lines: string[] = [`New submission to the form "${name}" (${input.formKey}).`, ''];
  for (const answer of input.answers) lines.push(...answerLines(answer, input.fileUrl));
  lines.push(
    '',
    `Page: ${input.page === null ? '(unknown)' : oneLine(input.page)}`,
    `Submitted: ${input.submittedAt}`,
    `Language: ${input.locale}`,
    `Submission: ${input.submissionId}`,
  );
  if (input.answers.some((a) => a.kind === 'files'))
    lines.push('', 'File links open with a management token (Authorization: Bearer …).');
  if (input.replyToVisitor) lines.push('', 'Reply to this email to answer the visitor.');
  return { subject: `New submission: ${name}`, text: `${lines.join('\n')}\n` };
}

function answerLines(answer: Answer, fileUrl: (uploadId: string) => string): string[] {
  const label = oneLine(answer.label);
  if (answer.kind === 'files') {
    return [
      `${label}:`,
      ...answer.files.map((f) =>
        f.size === null
          ? `  - ${oneLine(f.name)} (no longer stored)`
          : `  - ${oneLine(f.name)} (${formatSize(f.size)}): ${fileUrl(f.id)}`,
      ),
    ];
  }
  const text = answer.text.replace(/\r\n?/g, '\n');
  // Several lines (a textarea) go below their label, indented, so answers stay apart.
  if (!text.includes('\n')) return [`${label}: ${text}`];
  return [`${label}:`, ...text.split('\n').map((l) => `  ${l}`)];
}
