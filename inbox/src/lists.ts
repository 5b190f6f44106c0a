// The loaded pages of the current form's list, kept while a submission is open so `j`/`k` move through them.

import type { Item } from './read.js';

export interface LoadedList {
  form: string;
  /** The list's filters as in the address (the detail view keeps them). */
  key: string;
  items: Item[];
  nextCursor: string | null;
}

let loaded: LoadedList | null = null;

export const rememberList = (list: LoadedList): void => {
  loaded = list;
};

export const loadedList = (form: string, key: string): LoadedList | null =>
  loaded !== null && loaded.form === form && loaded.key === key ? loaded : null;
