// Keyboard shortcuts: single letters, never while typing in a field or with a modifier.

import { useEffect, useRef } from 'preact/hooks';

function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

export function useKeys(handlers: Record<string, () => void>): void {
  const current = useRef(handlers);
  current.current = handlers;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      if (document.querySelector('dialog[open]') && e.key !== '?') return;
      const handler = current.current[e.key];
      if (!handler) return;
      e.preventDefault();
      handler();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);
}
