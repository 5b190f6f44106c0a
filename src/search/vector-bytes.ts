import { endianness } from 'node:os';

/** Vectors are stored as packed little-endian float32 (migration 0015), whatever the machine. */
const LITTLE = endianness() === 'LE';

export function packVector(v: Float32Array): Uint8Array {
  if (LITTLE) return new Uint8Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
  const out = new Uint8Array(v.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < v.length; i++) view.setFloat32(i * 4, v[i]!, true);
  return out;
}

/** The vector of stored bytes; null when they are not a whole number of float32s. */
export function unpackVector(bytes: Uint8Array): Float32Array | null {
  if (bytes.byteLength === 0 || bytes.byteLength % 4 !== 0) return null;
  // A copy: the driver's buffer may sit at an offset a Float32Array cannot start at.
  const copy = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  if (LITTLE) return new Float32Array(copy);
  const view = new DataView(copy);
  const out = new Float32Array(bytes.byteLength / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}
