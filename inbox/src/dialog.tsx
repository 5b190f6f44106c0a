// A modal <dialog> (focus moves into it, Escape closes it), for confirmations and the shortcut help. Each dialog's
// title has its own id (two dialogs on one page must not share one).

import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';
import { t } from './i18n/index.js';

export function Dialog(props: {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = `dialog-${useId()}`;
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={props.onClose}>
      <h2 id={titleId}>{props.title}</h2>
      {props.children}
    </dialog>
  );
}

export function HelpDialog(props: { open: boolean; onClose: () => void }) {
  return (
    <Dialog title={t('shortcutsTitle')} open={props.open} onClose={props.onClose}>
      <dl class="keys">
        <dt>
          <kbd>j</kbd> / <kbd>k</kbd>
        </dt>
        <dd>{t('keyNextPrevious')}</dd>
        <dt>
          <kbd>o</kbd> / <kbd>Enter</kbd>
        </dt>
        <dd>{t('keyOpen')}</dd>
        <dt>
          <kbd>x</kbd>
        </dt>
        <dd>{t('keySelect')}</dd>
        <dt>
          <kbd>e</kbd>
        </dt>
        <dd>{t('keyDone')}</dd>
        <dt>
          <kbd>u</kbd>
        </dt>
        <dd>{t('keyBack')}</dd>
        <dt>
          <kbd>?</kbd>
        </dt>
        <dd>{t('keyHelp')}</dd>
      </dl>
      <p>{t('keysWhileTyping')}</p>
      <form method="dialog">
        <button>{t('close')}</button>
      </form>
    </Dialog>
  );
}
