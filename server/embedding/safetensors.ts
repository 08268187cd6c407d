/**
 * The safetensors format, as model2vec repositories store their matrices: a u64 little-endian header length, a
 * JSON header {name: {dtype, shape, data_offsets}} (space-padded to 8 bytes), then the raw little-endian data.
 */

export interface Tensor {
  dtype: string;
  shape: number[];
  bytes: Uint8Array;
}

export const DTYPE_SIZE: Record<string, number> = { F64: 8, F32: 4, F16: 2, BF16: 2, I64: 8, I32: 4, I16: 2, I8: 1, U8: 1, BOOL: 1 };

export function parseSafetensors(file: Uint8Array): Map<string, Tensor> {
  if (file.length < 8) throw new Error('model.safetensors is too short');
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  if (headerLength > file.length - 8 || headerLength > 100_000_000) throw new Error('model.safetensors has an invalid header length');
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(file.buffer, file.byteOffset + 8, headerLength).toString('utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`model.safetensors header is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  const data = file.subarray(8 + headerLength);
  const tensors = new Map<string, Tensor>();
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    const { dtype, shape, data_offsets: offsets } = entry as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    if (
      typeof dtype !== 'string' ||
      !Array.isArray(shape) ||
      !shape.every((n) => Number.isSafeInteger(n) && n >= 0) ||
      !Array.isArray(offsets) ||
      offsets.length !== 2
    ) {
      throw new Error(`model.safetensors: tensor "${name}" has a malformed header entry`);
    }
    const [begin, end] = offsets as [number, number];
    const size = DTYPE_SIZE[dtype];
    const count = (shape as number[]).reduce((a, b) => a * b, 1);
    if (!(begin >= 0 && begin <= end && end <= data.length)) throw new Error(`model.safetensors: tensor "${name}" lies outside the file`);
    if (size !== undefined && end - begin !== count * size)
      throw new Error(`model.safetensors: tensor "${name}" has ${end - begin} bytes for shape [${shape.join(', ')}] ${dtype}`);
    tensors.set(name, { dtype, shape: shape as number[], bytes: data.subarray(begin, end) });
  }
  return tensors;
}

export interface TensorEntry {
  name: string;
  dtype: 'F32' | 'F16' | 'F64' | 'I8' | 'I64';
  shape: number[];
  values: ArrayLike<number>;
}

/** The file for `entries`, in order. */
export function writeSafetensors(entries: readonly TensorEntry[]): Buffer {
  const blobs = entries.map((e) => encode(e.dtype, e.values));
  const header: Record<string, unknown> = {};
  let offset = 0;
  entries.forEach((e, i) => {
    header[e.name] = { dtype: e.dtype, shape: e.shape, data_offsets: [offset, offset + blobs[i]!.length] };
    offset += blobs[i]!.length;
  });
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (Buffer.byteLength(json) % 8)) % 8);
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(Buffer.byteLength(json)));
  return Buffer.concat([length, Buffer.from(json), ...blobs]);
}

function encode(dtype: TensorEntry['dtype'], values: ArrayLike<number>): Buffer {
  switch (dtype) {
    case 'F32':
      return Buffer.from(Float32Array.from(values).buffer);
    case 'F64':
      return Buffer.from(Float64Array.from(values).buffer);
    case 'I64':
      return Buffer.from(BigInt64Array.from(Array.from(values, BigInt)).buffer);
    case 'F16': {
      const halves = new Uint16Array(values.length);
      for (let i = 0; i < values.length; i++) halves[i] = toHalf(values[i]!);
      return Buffer.from(halves.buffer);
    }
    case 'I8': {
      // model2vec's int8 quantization: scale by the largest magnitude to ±127 and round; no scale is stored.
      let max = 0;
      for (let i = 0; i < values.length; i++) max = Math.max(max, Math.abs(values[i]!));
      const scale = max / 127 || 1;
      return Buffer.from(Int8Array.from(values, (v) => Math.max(-127, Math.min(127, Math.round(v / scale)))).buffer);
    }
  }
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
/** IEEE 754 binary16 bits of a number, rounding to nearest even (Node 20 has no Float16Array). */
export function toHalf(value: number): number {
  f32[0] = value;
  const x = u32[0]!;
  const sign = (x >>> 16) & 0x8000;
  const biased = (x >>> 23) & 0xff;
  let mantissa = x & 0x7fffff;
  if (biased === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0);
  const exp = biased - 127 + 15;
  if (exp >= 31) return sign | 0x7c00;
  if (exp <= 0) {
    if (exp < -10) return sign;
    mantissa |= 0x800000;
    const shift = 14 - exp;
    let half = mantissa >>> shift;
    const rest = mantissa & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    if (rest > mid || (rest === mid && half & 1)) half++;
    return sign | half;
  }
  let half = (exp << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  // A carry out of the mantissa correctly bumps the exponent (and overflows to infinity at the top).
  if (rest > 0x1000 || (rest === 0x1000 && half & 1)) half++;
  return sign | half;
}

let halfTable: Float32Array | undefined;
/** binary16 bits → value, for all 65536 bit patterns (256 KB, built once). */
export function halfToFloat(): Float32Array {
  if (halfTable) return halfTable;
  halfTable = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const sign = h & 0x8000 ? -1 : 1;
    const exp = (h >> 10) & 0x1f;
    const frac = h & 0x3ff;
    halfTable[h] =
      exp === 0 ? sign * frac * 2 ** -24 : exp === 31 ? (frac ? Number.NaN : sign * Infinity) : sign * (1 + frac / 1024) * 2 ** (exp - 15);
  }
  return halfTable;
}
