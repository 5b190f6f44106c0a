/** Query parameters whose value is a credential: a token, a signature of a signed link, a secret. */
const SECRET_PARAM = /token|secret|^sig(nature)?$/i;

/**
 * A URL as logged: the value of every credential-like query parameter replaced, so a log (at any level) never
 * holds a delivery token passed as `?token=` or a signed link's signature.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed escape: judged as written.
      }
      return SECRET_PARAM.test(name) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}
