// A leaf: the published log's `entry_paths.path_key` and redirects' `from_key` are written in this form.

/** The form a path is matched in: leading slash, no trailing slash, lower case (spec 2.6 rule 5 spirit). */
export function pathKey(path: string): string {
  let p = path.trim();
  if (!p.startsWith('/')) p = `/${p}`;
  p = p.replace(/\/{2,}/g, '/');
  if (p.length > 1) p = p.replace(/\/+$/, '');
  return p.toLowerCase();
}
