// Steps (spec 2.10: a `section` starts a new step). Without JavaScript every step shows in one page; here one
// step shows at a time, Next checks only the current step, and the send button appears on the last step.

import { DATA } from '../../../src/forms/render/ids.js';
import { type Messages, text } from '../../../src/forms/render/messages.js';

export interface StepHooks {
  /** Validates the step's fields and shows their errors; false keeps the visitor on the step. */
  canLeave(step: HTMLElement): boolean;
  /** A step whose fields are all hidden by their conditions is skipped. */
  isEmpty(step: HTMLElement): boolean;
}

export interface Steps {
  current(): HTMLElement;
  isLast(): boolean;
  /** Validates the current step and moves on (Enter in a field of a step that is not the last). */
  next(): void;
  /** Shows the step holding `element` (a field with an error). */
  reveal(element: Element): void;
  /** Fields appeared or vanished: the count and the last step may have changed. */
  refresh(): void;
}

interface Step {
  element: HTMLElement;
  counter: HTMLElement;
  next: HTMLButtonElement | null;
}

export function setupSteps(form: HTMLFormElement, messages: Messages, hooks: StepHooks): Steps | null {
  const elements = [...form.querySelectorAll<HTMLElement>(`[${DATA.step}]`)];
  if (elements.length < 2) return null;
  const doc = form.ownerDocument;
  const actions = form.querySelector<HTMLElement>(`[${DATA.actions}]`);
  const steps: Step[] = [];
  let index = 0;

  const live = () => steps.filter((s) => !hooks.isEmpty(s.element));
  const isLast = () => live().at(-1) === steps[index];
  const show = (i: number, focus: boolean) => {
    index = i;
    const shown = live();
    const position = shown.findIndex((s) => s === steps[i]) + 1;
    steps.forEach((s, j) => {
      s.element.hidden = j !== i;
      s.counter.textContent = text('step', messages, { step: position, steps: shown.length });
      if (s.next) s.next.hidden = isLast();
    });
    if (actions) actions.hidden = !isLast();
    if (focus) steps[i]?.element.focus();
  };
  const move = (direction: 1 | -1) => {
    for (let j = index + direction; j >= 0 && j < steps.length; j += direction) {
      const step = steps[j];
      if (step && !hooks.isEmpty(step.element)) return show(j, true);
    }
  };
  const goNext = () => {
    const step = steps[index];
    if (step && hooks.canLeave(step.element)) move(1);
  };

  elements.forEach((element, i) => {
    // Focusable, so moving to a step takes screen readers to its legend.
    element.tabIndex = -1;
    const nav = doc.createElement('div');
    nav.className = 'folio-step-nav';
    const counter = doc.createElement('p');
    counter.className = 'folio-step-count';
    nav.append(counter);
    const button = (label: string, className: string, onClick: () => void) => {
      const b = doc.createElement('button');
      b.type = 'button';
      b.className = className;
      b.textContent = label;
      b.addEventListener('click', onClick);
      nav.append(b);
      return b;
    };
    if (i > 0) button(text('back', messages), 'folio-back', () => move(-1));
    const next = i < elements.length - 1 ? button(text('next', messages), 'folio-next', goNext) : null;
    element.append(nav);
    steps.push({ element, counter, next });
  });

  // The first step may hold only fields hidden by their conditions.
  show(
    Math.max(
      0,
      steps.findIndex((s) => !hooks.isEmpty(s.element)),
    ),
    false,
  );
  return {
    current: () => steps[index]?.element ?? elements[0] ?? form,
    isLast,
    next: goNext,
    reveal: (element) => {
      const i = steps.findIndex((s) => s.element.contains(element));
      if (i >= 0 && i !== index) show(i, false);
    },
    refresh: () => show(index, false),
  };
}
