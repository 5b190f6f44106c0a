// The site's own files, served by server.mjs and copied by the static build: its stylesheet and favicon, and from
// the built client (client/dist, `npm run build`) the enhancer and the forms' stylesheet.
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/** URL path → file and media type. */
export const ASSETS = {
  '/assets/enhance.js': {
    file: here('../../client/dist/enhance.js'),
    type: 'text/javascript; charset=utf-8',
  },
  '/assets/forms.css': { file: here('../../client/dist/forms.css'), type: 'text/css; charset=utf-8' },
  '/assets/site.css': { file: here('./site.css'), type: 'text/css; charset=utf-8' },
  '/favicon.svg': { file: here('./favicon.svg'), type: 'image/svg+xml' },
};
