import { Transform, type TransformCallback } from 'node:stream';
import { ContentSniffer } from './sniff.js';

/** The stream went past its limit. */
export class FileTooLarge extends Error {}

/**
 * Passes a file's bytes on while a ContentSniffer reads them (its first and last bytes, and all of it when it is
 * markup), and fails the stream past `max`, so a too large file stops as soon as it is. Ask the sniffer for its
 * outcome once the stream has ended.
 */
export class SniffingLimit extends Transform {
  readonly sniffer = new ContentSniffer();

  constructor(private readonly max: number) {
    super();
  }

  get size(): number {
    return this.sniffer.size;
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.sniffer.size + chunk.length > this.max) return done(new FileTooLarge());
    this.sniffer.write(chunk);
    done(null, chunk);
  }
}
