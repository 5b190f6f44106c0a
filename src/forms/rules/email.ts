// One visitor, one identity: the address a `uniqueField` and an erase compare is the address as a
// person reads it, not as it was typed. Pure (the browser bundles the rules).

/**
 * Unicode's default-ignorable code points: zero-width spaces and joiners, the bidirectional controls, soft hyphens,
 * variation selectors, tags. Invisible in an address as shown, so two addresses differing only in them are one.
 */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/** The bidirectional controls (LRE … RLO, LRI … PDI, LRM, RLM, ALM): they reorder what is displayed around them. */
const BIDI_CONTROL = /\p{Bidi_Control}/u;

/**
 * RFC 5322 atext, with any non-ASCII character allowed (RFC 6531): what a local part may hold without quotes.
 * Everything but controls, space, the specials and the dot that separates atoms.
 */
const DOT_ATOM = /^[^\s\p{Cc}"(),.:;<>@[\\\]]+(?:\.[^\s\p{Cc}"(),.:;<>@[\\\]]+)*$/u;

/** A quoted local part without quoted-pairs: `"ada"@example.com`. */
const QUOTED_LOCAL = /^"([^"\\]*)"(@.*)$/su;

/** Whether the text holds a bidirectional control: refused in email fields (`invalid_email`), see `isEmail`. */
export function hasBidiControl(text: string): boolean {
  return BIDI_CONTROL.test(text);
}

function step(text: string): string {
  const folded = text.normalize('NFKC').toLowerCase().normalize('NFKC').replace(IGNORABLE, '').trim();
  // `"ada"@example.com` is `ada@example.com` (RFC 5322 3.4.1: the quotes add nothing to a dot-atom).
  const quoted = QUOTED_LOCAL.exec(folded);
  return quoted?.[1] !== undefined && DOT_ATOM.test(quoted[1]) ? `${quoted[1]}${quoted[2] ?? ''}` : folded;
}

/**
 * The address as compared (`uniqueField`, erase): NFKC (fullwidth and other compatibility forms become the plain
 * characters), lower case, default-ignorable code points removed (zero-width characters, bidi controls, soft
 * hyphens), surrounding white space trimmed, and a quoted local part that needs no quotes unquoted. For any text:
 * never throws, and normalizing a normalized address changes nothing.
 */
export function normalizeEmail(text: string): string {
  // Lower-casing can undo NFKC and the reverse (rare letters), so the steps repeat until nothing changes.
  let out = text;
  for (let i = 0; i < 8; i++) {
    const next = step(out);
    if (next === out) return out;
    out = next;
  }
  return out;
}
