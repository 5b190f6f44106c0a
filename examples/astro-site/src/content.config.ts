// Two collections from Folio: every entry in English and German, and the menus. A build reads only what /sync
// names since the previous one.
import { defineCollection } from 'astro:content';
import { folioEntriesLoader, folioMenusLoader } from '@folio/astro';
import { folio } from './folio';

export const collections = {
  entries: defineCollection({ loader: folioEntriesLoader(folio) }),
  menus: defineCollection({ loader: folioMenusLoader(folio) }),
};
