// @folio/client/forms.css for Folio's own pages (the result of a plain post): the built, minified file when
// `npm run build` wrote it, else the source. src/forms/submission/ and dist/forms/submission/ both sit three
// folders below the package root, beside which client/ is.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CANDIDATES = ['../../../client/dist/forms.css', '../../../client/src/forms/forms.css'].map((path) =>
  fileURLToPath(new URL(path, import.meta.url)),
);

let loaded: string | null = null;

/** The stylesheet's text, read once per process; '' when neither file is there (the page is then unstyled). */
export function formsCss(): string {
  if (loaded !== null) return loaded;
  loaded = '';
  for (const path of CANDIDATES) {
    try {
      loaded = readFileSync(path, 'utf8');
      break;
    } catch {
      // the next candidate
    }
  }
  return loaded;
}
