// What an answer's headers said, kept beside the answer's object: `responseInfo(await client.entries.byPath(…))`.

/** The headers of a delivery answer that sites act on (docs/api.md "Caching headers", "CDN tags"). */
export interface ResponseInfo {
  /** The HTTP status (200; a revalidated answer from the client's cache says 304). */
  status: number;
  /** `X-Folio-CV`: the cv the answer was rendered at; null where the route sends none. */
  cv: number | null;
  /** The CDN tags (`Surrogate-Key`), e.g. to tag a page of your own CDN with what it shows. */
  tags: string[];
  etag: string | null;
  cacheControl: string | null;
}

const infos = new WeakMap<object, ResponseInfo>();

export function responseInfoOf(status: number, headers: Headers): ResponseInfo {
  const cv = Number(headers.get('x-folio-cv'));
  const keys = headers.get('surrogate-key');
  return {
    status,
    cv: Number.isInteger(cv) && cv > 0 ? cv : null,
    tags: keys === null ? [] : keys.split(' ').filter((t) => t !== ''),
    etag: headers.get('etag'),
    cacheControl: headers.get('cache-control'),
  };
}

export function remember(value: unknown, info: ResponseInfo): void {
  if (typeof value === 'object' && value !== null) infos.set(value, info);
}

/** The headers of the answer a client call returned (undefined for objects no call returned). */
export function responseInfo(result: object): ResponseInfo | undefined {
  return infos.get(result);
}
