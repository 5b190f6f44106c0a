// Search folds like people do, the same for the stored copy and the query, on every engine.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldForSearch, searchTextOf } from '../../../src/lib/search-fold.js';

describe('foldForSearch', () => {
  it.each([
    // German: umlauts, ß and capital ẞ (full case folding: ss).
    ['MÜLLER', 'muller'],
    ['Straße', 'strasse'],
    ['GROẞ', 'gross'],
    // French: accents, ligatures.
    ['ZOË', 'zoe'],
    ['Élodie Fèvre', 'elodie fevre'],
    ['Œuvre', 'oeuvre'],
    // Turkish: dotted capital İ, dotless ı, ş and ğ.
    ['İSTANBUL', 'istanbul'],
    ['Işık Yılmaz', 'isik yilmaz'],
    ['Ağaoğlu', 'agaoglu'],
    // Greek: accents and the final sigma fold with the other sigmas.
    ['ΠΑΠΑΔΌΠΟΥΛΟΣ', 'παπαδοπουλοσ'],
    ['Παπαδόπουλος', 'παπαδοπουλοσ'],
    // Letters whose accent is part of the letter; width; invisible and bidi characters; white space.
    ['Łódź Søren Đorđe', 'lodz soren dorde'],
    ['ＡＢＣ ﬁle', 'abc file'],
    ['Mül\u00ADler\u202E', 'muller'],
    ['a \t\n b', 'a b'],
  ])('%s → %s', (text, folded) => {
    expect(foldForSearch(text)).toBe(folded);
  });

  it('never throws, is idempotent, and finds a folded word inside any text around it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string(), fc.string(), (word, before, after) => {
        const once = foldForSearch(word);
        expect(foldForSearch(once)).toBe(once);
        expect(foldForSearch(`${before} ${word} ${after}`)).toContain(once.trim());
      }),
    );
  });
});

describe('searchTextOf', () => {
  it('folds strings and numbers, list items included, one per line; never keys or booleans', () => {
    expect(searchTextOf({ name: 'ZOË', guests: 3, topics: ['Presse', 'Straße'], agree: true })).toBe(
      'zoe\n3\npresse\nstrasse',
    );
    expect(searchTextOf({})).toBe('');
  });
});
