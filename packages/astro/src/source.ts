// One Folio space for an Astro build: a client with the site's locale prefixes, pinned to one cv for the whole
// build (every loader and page reads the same version, whatever is published meanwhile).

import { createClient, type FolioClient, type LocalePrefixes, type SpaceStatus } from '@folio/client';

export interface FolioSourceOptions {
  /** The service's address, e.g. `https://folio.example.com`. */
  baseUrl: string;
  spaceId: string;
  /** A public token; for the form's no-JavaScript round trip, one whose origins name the site. */
  token: string;
  /** The site's URL prefix per locale, e.g. `{ en: '', de: '/de' }` (the client's `localePrefixes`). */
  localePrefixes?: LocalePrefixes;
  /** The locales to load; default: every locale of the space. */
  locales?: readonly string[];
  /** Reference fields to embed (`include`), also what `/sync` names affected pages by. */
  include?: readonly string[];
  /** The cv to build; default: the space's current cv when the build starts (read once). */
  cv?: number;
}

export interface FolioSource {
  readonly options: Readonly<FolioSourceOptions>;
  /** The unpinned client (status, submissions). */
  readonly client: FolioClient;
  /** The space's status, read once per build. */
  status(): Promise<SpaceStatus>;
  /** The client pinned to the build's cv (`client.at(cv)`): `options.cv`, else the current cv, read once. */
  pinned(): Promise<FolioClient>;
  /** The locales this site loads. */
  locales(): Promise<string[]>;
}

/** A Folio space for a site: pass it to `folioEntriesLoader`, `folioMenusLoader` and `renderFolioForm`. */
export function createFolioSource(options: FolioSourceOptions): FolioSource {
  const client = createClient({
    baseUrl: options.baseUrl,
    spaceId: options.spaceId,
    token: options.token,
    ...(options.localePrefixes === undefined ? {} : { localePrefixes: options.localePrefixes }),
  });
  let status: Promise<SpaceStatus> | undefined;
  const readStatus = () => (status ??= client.status());
  let pinned: Promise<FolioClient> | undefined;
  return {
    options,
    client,
    status: readStatus,
    pinned: () =>
      (pinned ??=
        options.cv === undefined
          ? readStatus().then((s) => client.at(s.cv))
          : Promise.resolve(client.at(options.cv))),
    async locales() {
      const known = (await readStatus()).locales.map((l) => l.code);
      return options.locales === undefined ? known : known.filter((l) => options.locales?.includes(l));
    },
  };
}
