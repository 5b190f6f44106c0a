// Answers are checked before use, minimally: the generated types describe the server's contract (and
// test/openapi.test.ts holds the server to it), so the client checks the shape it relies on, not every member.

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON object with these members present: `T` as the document describes it, or null when it is not one. */
export function objectWith<T extends object>(
  value: unknown,
  members: readonly (keyof T & string)[],
): T | null {
  if (!isObject(value)) return null;
  for (const member of members) if (!(member in value)) return null;
  // Checked above as far as the client relies on it; the rest is the server's documented contract.
  return value as T;
}
