import type { SpaceSettings } from './model.js';

export function defaultLocale(settings: SpaceSettings): string {
  const found = settings.locales.find((l) => l.default) ?? settings.locales[0];
  if (!found) throw new Error('space has no locales');
  return found.code;
}

/**
 * The locales tried for `code`, in order (spec 1.3): the locale, its fallbacks (each with its own chain),
 * then the default locale. Cycles are cut by the visited set.
 */
export function localeChain(settings: SpaceSettings, code: string): string[] {
  const byCode = new Map(settings.locales.map((l) => [l.code, l]));
  const chain: string[] = [];
  const visit = (c: string): void => {
    if (chain.includes(c)) return;
    chain.push(c);
    for (const next of byCode.get(c)?.fallbacks ?? []) visit(next);
  };
  visit(code);
  const fallback = defaultLocale(settings);
  if (!chain.includes(fallback)) chain.push(fallback);
  return chain;
}

/** Picks the first value present along the chain; absent and null count as missing. */
export function pickLocalized<T>(
  value: Record<string, T> | null | undefined,
  chain: readonly string[],
): T | undefined {
  if (value === null || value === undefined || typeof value !== 'object') return undefined;
  for (const code of chain) {
    if (Object.hasOwn(value, code)) {
      const v = value[code];
      if (v !== undefined && v !== null) return v;
    }
  }
  return undefined;
}
