// Hash routes, so every screen has an address without a server route: `#/`, `#/f/<form>?<filters>`,
// `#/f/<form>/s/<submission>`, `#/charts?days=90`, `#/erase`.

import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { name: 'overview' }
  | { name: 'list'; form: string; params: URLSearchParams }
  | { name: 'detail'; form: string; id: string; params: URLSearchParams }
  | { name: 'charts'; days: 30 | 90 }
  | { name: 'erase' };

export function parseRoute(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#/, '').split('?', 2);
  const params = new URLSearchParams(search);
  const parts = path
    .split('/')
    .filter((p) => p !== '')
    .map((p) => decodeURIComponent(p));
  if (parts[0] === 'f' && parts[1] !== undefined) {
    if (parts[2] === 's' && parts[3] !== undefined)
      return { name: 'detail', form: parts[1], id: parts[3], params };
    return { name: 'list', form: parts[1], params };
  }
  if (parts[0] === 'charts') return { name: 'charts', days: params.get('days') === '90' ? 90 : 30 };
  if (parts[0] === 'erase') return { name: 'erase' };
  return { name: 'overview' };
}

export function formHref(form: string, params?: URLSearchParams): string {
  const q = params?.toString() ?? '';
  return `#/f/${encodeURIComponent(form)}${q === '' ? '' : `?${q}`}`;
}

export function detailHref(form: string, id: string, params?: URLSearchParams): string {
  const q = params?.toString() ?? '';
  return `#/f/${encodeURIComponent(form)}/s/${encodeURIComponent(id)}${q === '' ? '' : `?${q}`}`;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onHash = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  return route;
}
