/** Menus as delivered and as authored (docs/api.md "GET /menus", "Management API"), for the OpenAPI document. */
import { S, object } from '../lib/api-schema.js';

const deliveredItem = object(
  {
    id: S.string,
    label: S.describe(S.string, 'In the requested locale (falls back along the chain).'),
    href: S.describe(
      S.nullableString,
      "A page's path in the locale, a URL, `mailto:<address>` or an asset's file URL; null for a heading.",
    ),
    target: { type: ['string', 'null'], enum: ['_blank', '_self', null] },
    entryId: S.describe(S.nullableString, "The linked page's entry id, else null."),
    children: S.arrayOf(S.anyObject, 'Items of the same shape (up to three levels).'),
  },
  undefined,
  'A menu item as delivered.',
);

export const deliveredMenu = object({ key: S.string, name: S.string, items: S.arrayOf(deliveredItem) });
export const menuBody = object({ menu: deliveredMenu, cv: S.cv });
export const menusBody = object({ menus: S.mapOf(deliveredMenu, 'Menus by key.'), cv: S.cv });

/** A menu as authored (the bundle's shape): labels per locale, links as `{ kind, … }`. */
export const authoredMenu = object(
  {
    key: S.string,
    name: S.string,
    items: S.arrayOf(
      object({
        id: S.string,
        label: S.mapOf(S.string, 'Per locale.'),
        link: {
          type: ['object', 'null'],
          additionalProperties: true,
          description:
            '`{ kind: "entry", entry }`, `{ kind: "url", url }`, `{ kind: "email", email }`, `{ kind: "asset", asset }`; null for a heading.',
        },
        target: S.nullableString,
        children: S.arrayOf(S.anyObject, 'Items of the same shape.'),
      }),
    ),
  },
  undefined,
  'A menu as authored.',
);
