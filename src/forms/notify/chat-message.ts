// The chat post of a submission (spec 3.2 "chat-posted if configured", 4.4 rule 6): a Slack-compatible
// incoming-webhook body `{ text, blocks }`. Every text is escaped so a visitor cannot mention people or plant links.

import { type Answer, formatSize } from './answers.js';

/** Slack's limits (api.slack.com/reference/block-kit): blocks per message, texts per object. */
export const CHAT_LIMITS = { blocks: 50, sectionText: 3000, fieldText: 2000, headerText: 150, text: 3000 };

export interface PlainText {
  type: 'plain_text';
  text: string;
  emoji: false;
}

export type ChatBlock =
  | { type: 'header'; text: PlainText }
  | { type: 'section'; text?: PlainText; fields?: PlainText[] }
  | { type: 'context'; elements: PlainText[] };

export interface ChatMessage {
  text: string;
  blocks: ChatBlock[];
  /** No previews: a link in an answer must not make the chat service fetch it. */
  unfurl_links: false;
  unfurl_media: false;
}

const ZWSP = '\u200b';

/**
 * Slack's escaping (api.slack.com/reference/surfaces/formatting#escaping): `&`, `<` and `>` as entities, so
 * `<!channel>`, `<@U123>` and `<https://x|label>` are shown, not acted on. Then a zero-width space after every `@`
 * (no `@channel`, `@here`, `@everyone` or user mentions), inside `://` and after `www` (no bare links).
 */
export function escapeChat(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@/g, `@${ZWSP}`)
    .replace(/:\/\//g, `:${ZWSP}//`)
    .replace(/\bwww\./gi, (m) => `${m.slice(0, 3)}${ZWSP}.`);
}

/** Escapes, then cuts to `max` characters without leaving half an entity behind. */
export function chatText(raw: string, max: number): string {
  const escaped = escapeChat(raw);
  if (escaped.length <= max) return escaped;
  return `${escaped.slice(0, max - 1).replace(/&[a-z]{0,3}$/, '')}…`;
}

const plain = (raw: string, max: number): PlainText => ({
  type: 'plain_text',
  text: chatText(raw, max) || ' ',
  emoji: false,
});

export interface ChatInput {
  formName: string;
  answers: readonly Answer[];
  page: string | null;
  submittedAt: string;
}

export function chatMessage(input: ChatInput): ChatMessage {
  const title = `New submission: ${input.formName}`;
  const footer = `${input.page === null ? '' : `Page: ${input.page} · `}Submitted: ${input.submittedAt}`;
  // Header and footer take two blocks; the rest is one section per answer, or one fewer and a "more" line.
  const room = CHAT_LIMITS.blocks - 2;
  const shown = input.answers.length <= room ? input.answers : input.answers.slice(0, room - 1);
  const blocks: ChatBlock[] = [{ type: 'header', text: plain(title, CHAT_LIMITS.headerText) }];
  for (const answer of shown) {
    blocks.push({
      type: 'section',
      fields: [plain(answer.label, CHAT_LIMITS.fieldText), plain(answerText(answer), CHAT_LIMITS.fieldText)],
    });
  }
  if (shown.length < input.answers.length) {
    const more = input.answers.length - shown.length;
    blocks.push({ type: 'context', elements: [plain(`…and ${more} more answers in the inbox.`, 200)] });
  }
  blocks.push({ type: 'context', elements: [plain(footer, CHAT_LIMITS.sectionText)] });

  const lines = [title, ...input.answers.map((a) => `${a.label}: ${answerText(a)}`), footer];
  return {
    text: chatText(lines.join('\n'), CHAT_LIMITS.text),
    blocks,
    unfurl_links: false,
    unfurl_media: false,
  };
}

/** Files by name and size only: a chat service is no place for download links. */
function answerText(answer: Answer): string {
  if (answer.kind === 'text') return answer.text;
  return answer.files.map((f) => (f.size === null ? f.name : `${f.name} (${formatSize(f.size)})`)).join(', ');
}
