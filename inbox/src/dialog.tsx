// A modal <dialog> (focus moves into it, Escape closes it), for confirmations and the shortcut help.

import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export function Dialog(props: {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog ref={ref} aria-labelledby="dialog-title" onClose={props.onClose}>
      <h2 id="dialog-title">{props.title}</h2>
      {props.children}
    </dialog>
  );
}

export function HelpDialog(props: { open: boolean; onClose: () => void }) {
  return (
    <Dialog title="Keyboard shortcuts" open={props.open} onClose={props.onClose}>
      <dl class="keys">
        <dt>
          <kbd>j</kbd> / <kbd>k</kbd>
        </dt>
        <dd>Next / previous submission</dd>
        <dt>
          <kbd>o</kbd> or <kbd>Enter</kbd>
        </dt>
        <dd>Open the current submission</dd>
        <dt>
          <kbd>x</kbd>
        </dt>
        <dd>Select the current submission</dd>
        <dt>
          <kbd>e</kbd>
        </dt>
        <dd>Mark done</dd>
        <dt>
          <kbd>u</kbd>
        </dt>
        <dd>Back to the list</dd>
        <dt>
          <kbd>?</kbd>
        </dt>
        <dd>This help</dd>
      </dl>
      <p>Shortcuts do nothing while you type in a field. Everything is also reachable with Tab.</p>
      <form method="dialog">
        <button>Close</button>
      </form>
    </Dialog>
  );
}
