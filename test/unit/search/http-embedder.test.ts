import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EmbedderUnavailable } from '../../../src/search/embedder.js';
import { parseEmbeddings } from '../../../src/search/http-embedder.js';
import { parseSearchQuery } from '../../../src/search/search-service.js';

describe('parseEmbeddings', () => {
  it('reads an OpenAI-shaped answer in index order, as unit vectors', () => {
    const body = {
      data: [
        { index: 1, embedding: [0, 2] },
        { index: 0, embedding: [3, 4] },
      ],
    };
    const [a, b] = parseEmbeddings(body, 2);
    expect([...a!]).toEqual([0.6000000238418579, 0.800000011920929]);
    expect([...b!]).toEqual([0, 1]);
  });

  it.each([
    ['no data', {}],
    ['too few', { data: [{ embedding: [1] }] }],
    [
      'repeated index',
      {
        data: [
          { index: 0, embedding: [1] },
          { index: 0, embedding: [1] },
        ],
      },
    ],
    ['mixed dimensions', { data: [{ embedding: [1, 2] }, { embedding: [1] }] }],
    ['a string', { data: [{ embedding: ['1'] }, { embedding: [1] }] }],
    ['empty vector', { data: [{ embedding: [] }, { embedding: [] }] }],
  ])('refuses %s', (_name, body) => {
    expect(() => parseEmbeddings(body, 2)).toThrow(EmbedderUnavailable);
  });

  it('never throws anything but EmbedderUnavailable, whatever the endpoint answers', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 1, max: 3 }), (body, n) => {
        try {
          const out = parseEmbeddings(body, n);
          expect(out.length).toBe(n);
        } catch (err) {
          expect(err).toBeInstanceOf(EmbedderUnavailable);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('parseSearchQuery', () => {
  it('takes q, type and limit, with limit 10 by default', () => {
    expect(parseSearchQuery({ q: '  how to return  ' })).toEqual({
      q: 'how to return',
      type: null,
      limit: 10,
    });
    expect(parseSearchQuery({ q: 'x', type: 'post', limit: '20' })).toEqual({
      q: 'x',
      type: 'post',
      limit: 20,
    });
  });

  it.each([
    [{}, 'q'],
    [{ q: '   ' }, 'q'],
    [{ q: 'x'.repeat(501) }, 'q'],
    [{ q: ['a', 'b'] }, 'q'],
    [{ q: 'x', limit: '0' }, 'limit'],
    [{ q: 'x', limit: '21' }, 'limit'],
    [{ q: 'x', limit: '1.5' }, 'limit'],
    [{ q: 'x', limit: '' }, 'limit'],
  ])('refuses %j naming %s', (query, parameter) => {
    expect(() => parseSearchQuery(query)).toThrow(
      expect.objectContaining({ code: 'invalid_query', status: 400 }),
    );
    try {
      parseSearchQuery(query);
    } catch (err) {
      expect(JSON.stringify((err as { toBody(): unknown }).toBody())).toContain(parameter);
    }
  });

  it('answers a value or a 400, never anything else, for any query object', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('q', 'type', 'limit'), fc.oneof(fc.string(), fc.array(fc.string()))),
        (query) => {
          try {
            parseSearchQuery(query);
          } catch (err) {
            expect(err).toMatchObject({ status: 400, code: 'invalid_query' });
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
