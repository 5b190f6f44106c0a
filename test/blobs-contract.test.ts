import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStore } from '../src/blobs/blob-store.js';
import { randomBase62 } from '../src/lib/ids.js';
import { BLOB_KINDS, openTestBlobs, type TestBlobs } from './helpers/blobs.js';

const MB = 1024 * 1024;

/** Reads a stream to the end without keeping it: byte count and sha256. */
async function digest(stream: Readable): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    hash.update(chunk);
  }
  return { size, sha256: hash.digest('hex') };
}

/** The blob, which the test expects to be there. */
async function mustGet(blobs: BlobStore, key: string): Promise<{ stream: Readable; size: number }> {
  const got = await blobs.get(key);
  if (got === null) throw new Error(`no blob under ${key}`);
  return got;
}

async function readText(blobs: BlobStore, key: string): Promise<string | null> {
  const got = await blobs.get(key);
  if (got === null) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of got.stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** `total` bytes of a repeatable pattern, generated chunk by chunk, then (optionally) an error as a size limit would. */
function generated(total: number, opts: { failWith?: Error } = {}): Readable {
  const chunkSize = 64 * 1024;
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) {
        if (opts.failWith) this.destroy(opts.failWith);
        else this.push(null);
        return;
      }
      const n = Math.min(chunkSize, total - sent);
      this.push(Buffer.alloc(n, (sent / chunkSize) % 251));
      sent += n;
    },
  });
}

/** `global.gc`, exposed at run time when node was started without --expose-gc (as jest's leak detector does). */
function exposeGc(): () => void {
  const existing: unknown = (globalThis as { gc?: unknown }).gc;
  if (typeof existing === 'function') return () => existing();
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('gc');
  setFlagsFromString('--no-expose-gc');
  if (typeof gc !== 'function') throw new Error('could not expose gc');
  return () => gc();
}

const sha256Of = (stream: Readable) => digest(stream).then((d) => d.sha256);

/** A key of its own for each test, so tests on one store cannot see each other's blobs. */
const newKey = (name = 'file.bin') => `test/${randomBase62(10)}/${name}`;

describe.each(BLOB_KINDS)('blob store contract: %s', (kind) => {
  let t: TestBlobs;
  beforeAll(async () => {
    t = await openTestBlobs(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('put of a Buffer reports its size, and get returns the same bytes and size', async () => {
    const key = newKey('hello.txt');
    expect(await t.blobs.put(key, Buffer.from('hello, world'), { contentType: 'text/plain' })).toEqual({
      size: 12,
    });
    const got = await mustGet(t.blobs, key);
    expect(got.size).toBe(12);
    expect((await digest(got.stream)).sha256).toBe(createHash('sha256').update('hello, world').digest('hex'));
  });

  it('stores an empty blob', async () => {
    const key = newKey();
    expect(await t.blobs.put(key, Buffer.alloc(0))).toEqual({ size: 0 });
    expect(await readText(t.blobs, key)).toBe('');
  });

  it('put of a Readable streams it, across several 5 MB parts', async () => {
    const key = newKey();
    const size = 11 * MB + 123;
    expect(await t.blobs.put(key, generated(size))).toEqual({ size });
    const got = await mustGet(t.blobs, key);
    expect(got.size).toBe(size);
    expect(await digest(got.stream)).toEqual({ size, sha256: await sha256Of(generated(size)) });
  });

  it('put of a Readable of strings stores their UTF-8 bytes', async () => {
    const key = newKey();
    expect(await t.blobs.put(key, Readable.from(['grüß ', 'dich']))).toEqual({ size: 11 });
    expect(await readText(t.blobs, key)).toBe('grüß dich');
  });

  it('put replaces what was under the key', async () => {
    const key = newKey();
    await t.blobs.put(key, Buffer.from('first version, longer'));
    await t.blobs.put(key, Readable.from([Buffer.from('second')]));
    const got = await mustGet(t.blobs, key);
    expect(got.size).toBe(6);
    got.stream.destroy();
    expect(await readText(t.blobs, key)).toBe('second');
  });

  it('get of a missing key is null', async () => {
    expect(await t.blobs.get(newKey())).toBeNull();
  });

  it('delete removes the blob, and deleting a missing one is no error', async () => {
    const key = newKey();
    await t.blobs.put(key, Buffer.from('x'));
    await t.blobs.delete(key);
    expect(await t.blobs.get(key)).toBeNull();
    await expect(t.blobs.delete(key)).resolves.toBeUndefined();
    await expect(t.blobs.delete(newKey())).resolves.toBeUndefined();
  });

  // Segments stay under 255 bytes: directories cannot name a longer file (ENAMETOOLONG), nor can s3rver's.
  it('accepts a key of 512 characters', async () => {
    const key = `${'a'.repeat(200)}/${'b'.repeat(200)}/${'c'.repeat(110)}`;
    expect(key).toHaveLength(512);
    await t.blobs.put(key, Buffer.from('long'));
    expect(await readText(t.blobs, key)).toBe('long');
    await t.blobs.delete(key);
  });

  describe.each([
    ['a parent segment', '../x'],
    ['an absolute path', '/abs'],
    ['an empty segment', 'a//b'],
    ['a parent segment inside', 'a/../b'],
    ['a current-directory segment', 'a/./b'],
    ['a trailing slash', 'a/'],
    ['a backslash', 'a\\b'],
    ['nothing', ''],
    ['over 512 characters', `${'a'.repeat(200)}/${'b'.repeat(200)}/${'c'.repeat(111)}`],
  ])('a key with %s is rejected', (_what, key) => {
    it('by put, get and delete', async () => {
      await expect(t.blobs.put(key, Buffer.from('x'))).rejects.toThrow(/invalid blob key/);
      await expect(t.blobs.get(key)).rejects.toThrow(/invalid blob key/);
      await expect(t.blobs.delete(key)).rejects.toThrow(/invalid blob key/);
    });
  });

  // All or nothing (BlobStore.put): a failed put leaves the key as it was. A new key stays empty; an existing blob
  // keeps its previous bytes (the directory writes a temp file and renames; S3 replaces an object only when a
  // PutObject or CompleteMultipartUpload succeeds).
  describe.each([
    ['less than one part (no request is sent)', 2 * MB],
    ['several parts (multipart upload abandoned)', 12 * MB],
  ])('a source that errors after %s', (_what, bytes) => {
    it('rejects with the source error and leaves nothing under a new key', async () => {
      const key = newKey();
      const limit = new Error('too large');
      await expect(t.blobs.put(key, generated(bytes, { failWith: limit }))).rejects.toBe(limit);
      expect(await t.blobs.get(key)).toBeNull();
    });

    it('keeps the previous blob under an existing key', async () => {
      const key = newKey();
      await t.blobs.put(key, Buffer.from('previous'));
      const limit = new Error('too large');
      await expect(t.blobs.put(key, generated(bytes, { failWith: limit }))).rejects.toBe(limit);
      expect(await readText(t.blobs, key)).toBe('previous');
    });
  });

  it('streams a 60 MB blob in and out without holding it in memory', { timeout: 120_000 }, async () => {
    const size = 60 * MB;
    const key = newKey();
    const gc = exposeGc();
    gc();
    gc();
    const base = process.memoryUsage();
    let peakBuffers = 0;
    let peakRss = 0;
    // Each sample collects first, so it counts live buffers (outside the JS heap, in arrayBuffers), not garbage
    // V8 has yet to collect: without it the peaks swing by tens of MB from run to run. Twice, because buffers freed
    // by one collection leave the count only when its sweep ends, which the next collection waits for.
    const sampler = setInterval(() => {
      gc();
      gc();
      const now = process.memoryUsage();
      peakBuffers = Math.max(peakBuffers, now.arrayBuffers - base.arrayBuffers);
      peakRss = Math.max(peakRss, now.rss - base.rss);
    }, 100);
    try {
      expect(await t.blobs.put(key, generated(size))).toEqual({ size });
      const got = await mustGet(t.blobs, key);
      expect(got.size).toBe(size);
      expect((await digest(got.stream)).size).toBe(size);
    } finally {
      clearInterval(sampler);
    }
    // S3 holds about three 5 MB parts at once (s3rver, in this process, adds its stream buffers): 16–20 MB measured,
    // the directory well under 1 MB.
    expect(peakBuffers / MB, 'growth of live buffers, MB').toBeLessThan(30);
    // RSS keeps freed pages and depends on the allocator; only a whole-file copy would push it past the file size.
    expect(peakRss / MB, 'growth of RSS, MB').toBeLessThan(size / MB);
    await t.blobs.delete(key);
  });

  it('handles many concurrent puts and gets of different keys', async () => {
    const items = Array.from({ length: 24 }, (_, i) => ({
      key: newKey(`c${i}.txt`),
      text: `blob ${i} `.repeat(i * 50 + 1),
    }));
    await Promise.all(
      items.map(({ key, text }, i) =>
        t.blobs.put(key, i % 2 === 0 ? Buffer.from(text) : Readable.from([Buffer.from(text)])),
      ),
    );
    const texts = await Promise.all(items.map(({ key }) => readText(t.blobs, key)));
    expect(texts).toEqual(items.map((i) => i.text));
    await Promise.all(items.map(({ key }) => t.blobs.delete(key)));
    expect(await Promise.all(items.map(({ key }) => t.blobs.get(key)))).toEqual(items.map(() => null));
  });
});
