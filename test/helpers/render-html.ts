// Rendered form HTML read back with a real HTML parser (htmlparser2, installed with mailparser), and the
// definitions the renderer tests share.

import { readFileSync } from 'node:fs';
import { DomUtils, parseDocument } from 'htmlparser2';
import { expect } from 'vitest';
import type { DeliveredField, DeliveredForm } from '../../client/src/forms/definition.js';
import type { RenderOptions } from '../../src/forms/render/render.js';
import { deliverForm, type ListOption } from '../../src/forms/definition/deliver.js';
import type { FormDefinition } from '../../src/forms/rules/index.js';

export type Node = ReturnType<typeof DomUtils.findAll>[number];

export function parse(html: string) {
  const doc = parseDocument(html);
  const all = DomUtils.findAll(() => true, doc.children);
  const attr = (e: Node, name: string) => e.attribs[name];
  const byId = (id: string) => {
    const found = all.filter((e) => attr(e, 'id') === id);
    expect(found, `one element with id ${id}`).toHaveLength(1);
    return found[0] as Node;
  };
  const text = (e: Node) => DomUtils.textContent(e).replace(/\s+/g, ' ').trim();
  const tag = (name: string) => all.filter((e) => e.name === name);
  const controls = all.filter((e) => ['input', 'select', 'textarea'].includes(e.name));
  return { all, attr, byId, text, tag, controls };
}

export const OPTS: RenderOptions = {
  baseUrl: 'https://folio.example.com/',
  spaceId: 'spc_demo',
  token: 'folio_pub_DemoToken000000000001',
};

export function demoContactForm(): DeliveredForm {
  const bundle = JSON.parse(
    readFileSync(new URL('../../examples/demo/bundle.json', import.meta.url), 'utf8'),
  ) as {
    forms: FormDefinition[];
    lists: { key: string; options: ListOption[] }[];
  };
  const lists = Object.fromEntries(bundle.lists.map((l) => [l.key, l.options]));
  const contact = bundle.forms.find((f) => f.key === 'contact');
  if (!contact) throw new Error('the demo bundle has no contact form');
  return deliverForm(contact, {
    localeChain: ['en'],
    defaultLocale: 'en',
    lists,
    now: new Date(),
    nonSpamCount: 0,
  });
}

export function form(fields: DeliveredField[], extra: Partial<DeliveredForm> = {}): DeliveredForm {
  return {
    key: 'all',
    name: 'All',
    locale: 'en',
    fields,
    honeypot: 'website',
    turnstile: false,
    turnstileSiteKey: null,
    successMessage: 'Thanks!',
    status: 'open',
    closedMessage: null,
    opensAt: null,
    closesAt: null,
    ...extra,
  };
}

export const OPTIONS = [
  { value: 'a', label: 'Alpha' },
  { value: 'b', label: 'Beta' },
];

/** One field of every type of spec 2.10, with its settings. */
export const EVERY_TYPE: DeliveredField[] = [
  { key: 'intro', type: 'heading', label: 'About you' },
  { key: 'note', type: 'paragraph', label: 'We keep it short.' },
  {
    key: 'name',
    type: 'text',
    label: 'Name',
    required: true,
    minLength: 2,
    maxLength: 80,
    placeholder: 'Ada',
  },
  { key: 'bio', type: 'textarea', label: 'Bio', help: 'A few lines.' },
  { key: 'email', type: 'email', label: 'Email', required: true },
  { key: 'phone', type: 'tel', label: 'Phone' },
  { key: 'site', type: 'url', label: 'Website' },
  { key: 'age', type: 'number', label: 'Age', min: 18, max: 120, step: 1 },
  { key: 'amount', type: 'number', label: 'Amount' },
  { key: 'day', type: 'date', label: 'Day', minDate: 'today', maxDate: '2027-12-31' },
  { key: 'at', type: 'time', label: 'Time' },
  { key: 'size', type: 'select', label: 'Size', required: true, options: OPTIONS },
  { key: 'color', type: 'radio', label: 'Color', required: true, options: OPTIONS, help: 'Pick one.' },
  { key: 'topics', type: 'checkboxes', label: 'Topics', options: OPTIONS, min: 1, max: 2 },
  { key: 'news', type: 'checkbox', label: 'Send news' },
  {
    key: 'terms',
    type: 'consent',
    label: 'I agree',
    link: { label: 'Terms', url: 'https://example.com/terms' },
  },
  { key: 'campaign', type: 'hidden', defaultValue: 'none', fromQuery: 'utm_campaign' },
  { key: 'cv', type: 'file', label: 'CV', required: true, accept: ['application/pdf', '.docx'], maxFiles: 3 },
  { key: 'more', type: 'section', label: 'More', help: 'Optional details.' },
  {
    key: 'details',
    type: 'text',
    label: 'Details',
    required: true,
    showIf: { match: 'all', rules: [{ field: 'news', op: 'equals', value: true }] },
  },
];
