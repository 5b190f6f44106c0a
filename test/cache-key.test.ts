import { describe, expect, it, vi } from 'vitest';
import { cacheKeyOf } from '../src/cache/cache-key.js';
import { noneMatch } from '../src/cache/etag.js';
import { decode, encode, ResponseCache } from '../src/cache/response-cache.js';
import type { SpaceEntry } from '../src/cluster/space-directory.js';

const space = {
  row: { id: 'spc_a', name: 'A', settings: {}, cv: 7, minCv: 3, createdAt: '' },
  defaultLocale: 'en',
} as unknown as SpaceEntry;
const key = (query: Record<string, unknown>, path = '/v1/spc_a/entries/x') =>
  cacheKeyOf(space, path, query)?.key;

describe('the cache key (DESIGN.md "Caching")', () => {
  it('is space, cv, path and the sorted query with the default locale applied and the token removed', () => {
    expect(key({})).toBe('spc_a|7|/v1/spc_a/entries/x?locale=en');
    expect(key({ token: 'folio_pub_x', include: 'a', locale: 'en' })).toBe(key({ include: 'a' }));
    expect(key({ fields: 'b', include: 'a' })).toBe(key({ include: 'a', fields: 'b' }));
    expect(key({}, '/v1/spc_a/entries/x/')).toBe(key({}));
    expect(key({ locale: 'de' })).not.toBe(key({}));
    expect(key({ draft: '0' })).toBe(key({}));
  });

  it('escapes values, so no two queries share a key', () => {
    expect(key({ a: 'b&c=d' })).not.toBe(key({ a: 'b', c: 'd' }));
  });

  it('marks a pinned cv apart from the same cv unpinned (their Cache-Control differs)', () => {
    const pinned = cacheKeyOf(space, '/p', { cv: '7' });
    expect(pinned).toMatchObject({ cv: 7, pinned: true });
    expect(pinned?.key).not.toBe(cacheKeyOf(space, '/p', {})?.key);
    expect(cacheKeyOf(space, '/p', { cv: '5' })?.cv).toBe(5);
  });

  it.each([
    ['draft', { draft: '1' }],
    ['release', { release: 'rel_x' }],
    ['a repeated parameter', { locale: ['en', 'de'] }],
    ['a malformed cv', { cv: '07' }],
    ['a cv older than the kept history', { cv: '2' }],
  ])('is null (never cached) for %s', (_name, query) => {
    expect(cacheKeyOf(space, '/p', query)).toBeNull();
  });
});

describe('If-None-Match (RFC 9110 13.1.2)', () => {
  it.each([
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['*', true],
    ['"abcd"', false],
    ['', false],
  ])('%s → %s', (header, expected) => {
    expect(noneMatch(header, '"abc"')).toBe(expected);
  });
});

describe('the L2 encoding', () => {
  it('round-trips status, headers, ETag and the exact bytes, and reads a foreign value as a miss', () => {
    const value = {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8', etag: '"e"' },
      body: Buffer.from('{"ü":1}'),
      etag: '"e"',
    };
    const back = decode(encode(value));
    expect(back).toEqual(value);
    expect(decode(Buffer.from('garbage'))).toBeUndefined();
  });
});

describe('L1', () => {
  const value = (n: number) => ({ status: 200, headers: {}, body: Buffer.alloc(n), etag: undefined });
  const k = (key: string, pinned = false) => ({ key, spaceId: 's', cv: 1, pinned });

  it('forgets current-cv entries after the TTL and keeps pinned ones', () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    try {
      const cache = new ResponseCache({ l1MaxBytes: 1e6, ttlSeconds: 60, pinnedTtlSeconds: 600 }, null);
      cache.set(k('current'), value(10));
      cache.set(k('pinned', true), value(10));
      vi.setSystemTime(new Date('2026-01-01T00:00:59Z'));
      expect(cache.getL1(k('current'))).toBeDefined();
      vi.setSystemTime(new Date('2026-01-01T00:01:01Z'));
      expect(cache.getL1(k('current'))).toBeUndefined();
      expect(cache.getL1(k('pinned', true))).toBeDefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('is bounded by bytes: the least recently used entry goes first', () => {
    const cache = new ResponseCache({ l1MaxBytes: 7000, ttlSeconds: 60, pinnedTtlSeconds: 600 }, null);
    cache.set(k('a'), value(2000));
    cache.set(k('b'), value(2000));
    expect(cache.getL1(k('a'))).toBeDefined();
    cache.set(k('c'), value(2000));
    expect(cache.getL1(k('b'))).toBeUndefined();
    expect(cache.getL1(k('a'))).toBeDefined();
    expect(cache.getL1(k('c'))).toBeDefined();
  });
});
