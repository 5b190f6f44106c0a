// The enhancer's view of a rendered form: per field its wrapper, controls and error slot (found by the data
// attributes of ids.ts), and the raw values the rules read — the same shapes a JSON submission carries.

import type { DeliveredField, DeliveredForm } from './definition.js';
import { DATA, ids } from '../../../src/forms/render/ids.js';

export type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

export interface FieldParts {
  field: DeliveredField;
  /** the element with data-folio-field (for hidden fields, the input itself) */
  wrapper: HTMLElement;
  controls: Control[];
  error: HTMLElement | null;
  /** where aria-describedby lives: the group's fieldset, or the control */
  described: HTMLElement | null;
}

function isControl(e: Element): e is Control {
  return e instanceof HTMLInputElement || e instanceof HTMLSelectElement || e instanceof HTMLTextAreaElement;
}

/** Every field of the definition that has markup in the form, in definition order. */
export function collectFields(
  form: HTMLFormElement,
  def: DeliveredForm,
  prefix: string,
): Map<string, FieldParts> {
  const wrappers = new Map<string, HTMLElement>();
  for (const e of form.querySelectorAll<HTMLElement>(`[${DATA.field}]`)) {
    const key = e.getAttribute(DATA.field);
    if (key !== null && !wrappers.has(key)) wrappers.set(key, e);
  }
  const out = new Map<string, FieldParts>();
  for (const field of def.fields) {
    const wrapper = wrappers.get(field.key);
    if (!wrapper) continue;
    const controls = isControl(wrapper)
      ? [wrapper]
      : [...wrapper.querySelectorAll('input,select,textarea')].filter(isControl);
    const group = field.type === 'radio' || field.type === 'checkboxes';
    out.set(field.key, {
      field,
      wrapper,
      controls,
      error: form.ownerDocument.getElementById(ids.error(prefix, field.key)),
      described: group ? wrapper : (controls[0] ?? null),
    });
  }
  return out;
}

export function selectedFiles(parts: FieldParts): File[] {
  const input = parts.controls[0];
  return input instanceof HTMLInputElement && input.files ? [...input.files] : [];
}

/**
 * The raw value of one field as a JSON submission carries it: text as typed, checkboxes as a list of ticked
 * values, a single box as a boolean, a file field as upload ids (`fileIds` maps the chosen files).
 */
export function rawValue(parts: FieldParts, fileIds: (parts: FieldParts) => string[]): unknown {
  const { field, controls } = parts;
  const first = controls[0];
  switch (field.type) {
    case 'heading':
    case 'paragraph':
    case 'section':
      return undefined;
    case 'radio':
      return controls.find((c) => c instanceof HTMLInputElement && c.checked)?.value;
    case 'checkboxes':
      return controls.filter((c) => c instanceof HTMLInputElement && c.checked).map((c) => c.value);
    case 'checkbox':
    case 'consent':
      return first instanceof HTMLInputElement ? first.checked : undefined;
    case 'file':
      return fileIds(parts);
    default:
      return first?.value;
  }
}

/** Shows or hides a field (live showIf); hidden controls are disabled so nothing of them is sent or focused. */
export function setShown(parts: FieldParts, shown: boolean): void {
  if (parts.field.type !== 'hidden') parts.wrapper.hidden = !shown;
  for (const c of parts.controls) c.disabled = !shown;
}

function setToken(e: HTMLElement, attr: string, token: string, on: boolean): void {
  const list = (e.getAttribute(attr) ?? '').split(/\s+/).filter((t) => t !== '' && t !== token);
  if (on) list.push(token);
  if (list.length > 0) e.setAttribute(attr, list.join(' '));
  else e.removeAttribute(attr);
}

/** Shows a field's error (or clears it with null): text, code, aria-invalid and aria-describedby. */
export function showFieldError(parts: FieldParts, error: { code: string; message: string } | null): void {
  const slot = parts.error;
  if (slot) {
    slot.textContent = error?.message ?? '';
    slot.hidden = error === null;
    if (error) slot.setAttribute(DATA.code, error.code);
    else slot.removeAttribute(DATA.code);
    if (parts.described) setToken(parts.described, 'aria-describedby', slot.id, error !== null);
  }
  for (const c of parts.controls) {
    if (error) c.setAttribute('aria-invalid', 'true');
    else c.removeAttribute('aria-invalid');
  }
}

export function hasFieldError(parts: FieldParts): boolean {
  return parts.error !== null && !parts.error.hidden;
}

/** The element a link in the error summary points at and focus goes to. */
export function focusTarget(parts: FieldParts): HTMLElement | null {
  return parts.controls.find((c) => !c.disabled) ?? null;
}

/** Puts a value back into a field's controls (a draft read back on load); file fields are left alone. */
export function setValue(parts: FieldParts, value: string | boolean | readonly string[]): void {
  const { field, controls } = parts;
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  for (const c of controls) {
    if (!(c instanceof HTMLInputElement) || (c.type !== 'checkbox' && c.type !== 'radio')) {
      if (field.type !== 'file' && typeof value === 'string') c.value = value;
      continue;
    }
    c.checked =
      field.type === 'checkbox' || field.type === 'consent'
        ? value === true || value === 'true' || value === 'on'
        : list.includes(c.value);
  }
}
