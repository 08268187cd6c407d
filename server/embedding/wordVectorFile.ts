/**
 * The converted form of a word-vector package (wordVectors.ts): one file in the model cache that a start reads
 * with one readFile and views as typed arrays, so loading the model parses nothing and builds no object per word.
 *
 * Layout, little-endian: "mnemo-wv" · u32 header length · header JSON · then, each at a multiple of 8 bytes:
 * weights f32[count] · vectors f16[count × dims] · slots u32[slotCount] (an open-addressing hash of the words:
 * row + 1, 0 for empty) · wordEnds u32[count] (end of each row's word in `words`) · words (UTF-8, concatenated).
 * The header holds a CRC-32 of everything after it, so a damaged file is rebuilt instead of believed.
 */
import { crc32 } from 'node:zlib';

const MAGIC = Buffer.from('mnemo-wv');
/** Bumped when the layout changes; a file of another format is converted again. */
const FORMAT = 1;

export interface WordVectorHeader {
  format: number;
  /** The model id (package, version and recipe) the file was converted for. */
  model: string;
  /** The size in bytes of the package's table it was converted from: a different table converts again. */
  tableBytes: number;
  dims: number;
  count: number;
  slotCount: number;
  wordBytes: number;
  /** The longest text, in code points, read before tokenizing (model2vec: 512 × the median token length). */
  maxChars: number;
  crc: number;
}

export interface WordVectorData {
  weights: Float32Array;
  /** binary16 bits, row after row. */
  vectors: Uint16Array;
  slots: Uint32Array;
  wordEnds: Uint32Array;
  words: Uint8Array;
}

/** Yields to the event loop once `budgetMs` of work has passed since the last yield, so no request waits long. */
export function timeSlicer(budgetMs = 5): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < budgetMs) return;
    await new Promise((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}

/** FNV-1a over the word's UTF-8 bytes. */
export function wordHash(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193);
  return h >>> 0;
}

/** A power of two with room to spare, so probes stay short. */
export function slotCountFor(count: number): number {
  let n = 8;
  while (n < count * 2) n *= 2;
  return n;
}

/** Slot `row + 1` of each word, by linear probing; the caller guarantees the words are distinct. */
export function placeWord(slots: Uint32Array, bytes: Uint8Array, row: number): void {
  const mask = slots.length - 1;
  let at = wordHash(bytes) & mask;
  while (slots[at] !== 0) at = (at + 1) & mask;
  slots[at] = row + 1;
}

const align8 = (n: number) => Math.ceil(n / 8) * 8;

function sections(h: Pick<WordVectorHeader, 'dims' | 'count' | 'slotCount' | 'wordBytes'>) {
  const sizes = [h.count * 4, h.count * h.dims * 2, h.slotCount * 4, h.count * 4, h.wordBytes];
  const offsets: number[] = [];
  let at = 0;
  for (const size of sizes) {
    offsets.push(at);
    at = align8(at + size);
  }
  return { sizes, offsets, length: at };
}

/** The file's bytes, in pieces to write one after the other (views of `data`, not copies). */
export async function encodeWordVectorFile(
  header: Omit<WordVectorHeader, 'format' | 'crc'>,
  data: WordVectorData,
  pause: () => Promise<void>,
): Promise<Uint8Array[]> {
  const { sizes, offsets, length } = sections(header);
  const sources = [data.weights, data.vectors, data.slots, data.wordEnds, data.words];
  const body = sources.flatMap((p, i) => {
    const bytes = new Uint8Array(p.buffer, p.byteOffset, sizes[i]);
    const padding = (offsets[i + 1] ?? length) - offsets[i]! - sizes[i]!;
    return padding > 0 ? [bytes, new Uint8Array(padding)] : [bytes];
  });
  let crc = 0;
  for (const part of body) crc = await crcOf(part, pause, crc);
  const json = Buffer.from(JSON.stringify({ format: FORMAT, ...header, crc } satisfies WordVectorHeader));
  const prefix = Buffer.alloc(align8(MAGIC.length + 4 + json.length));
  MAGIC.copy(prefix);
  prefix.writeUInt32LE(json.length, MAGIC.length);
  json.copy(prefix, MAGIC.length + 4);
  return [prefix, ...body];
}

/**
 * The tables of a converted file, viewed in place; throws (saying why) when the file is not a complete, intact
 * conversion of `expected` in this format.
 */
export async function decodeWordVectorFile(
  file: Buffer,
  expected: Pick<WordVectorHeader, 'model' | 'tableBytes'>,
  pause: () => Promise<void>,
): Promise<{ header: WordVectorHeader; data: WordVectorData }> {
  if (file.length < MAGIC.length + 4 || !file.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error('not a converted word-vector file');
  const jsonEnd = MAGIC.length + 4 + file.readUInt32LE(MAGIC.length);
  let header: WordVectorHeader;
  try {
    header = JSON.parse(file.subarray(MAGIC.length + 4, jsonEnd).toString('utf8'));
  } catch {
    throw new Error('its header is damaged');
  }
  if (header.format !== FORMAT) throw new Error(`it has format ${header.format}, this version reads ${FORMAT}`);
  if (header.model !== expected.model || header.tableBytes !== expected.tableBytes) {
    throw new Error(
      `it was converted from ${header.model} (${header.tableBytes} bytes), not ${expected.model} (${expected.tableBytes} bytes)`,
    );
  }
  const { offsets, length } = sections(header);
  let body = file.subarray(align8(jsonEnd));
  if (body.length !== length) throw new Error(`it has ${body.length} bytes of tables, ${length} expected (an interrupted write?)`);
  if ((await crcOf(body, pause)) !== header.crc) throw new Error('its checksum does not match (a damaged file?)');
  // Typed-array views need aligned offsets; a Buffer from readFile of this size starts its own ArrayBuffer.
  if (body.byteOffset % 8 !== 0) body = Buffer.from(body);
  const view = <T>(ctor: new (b: ArrayBuffer, o: number, n: number) => T, i: number, n: number) =>
    new ctor(body.buffer as ArrayBuffer, body.byteOffset + offsets[i]!, n);
  const data = {
    weights: view(Float32Array, 0, header.count),
    vectors: view(Uint16Array, 1, header.count * header.dims),
    slots: view(Uint32Array, 2, header.slotCount),
    wordEnds: view(Uint32Array, 3, header.count),
    words: view(Uint8Array, 4, header.wordBytes),
  };
  return { header, data };
}

/** CRC-32 in slices of 1 MB, pausing between them: one call over the whole file would hold the event loop. */
async function crcOf(bytes: Uint8Array, pause: () => Promise<void>, initial = 0): Promise<number> {
  const slice = 1 << 20;
  let crc = initial;
  for (let at = 0; at < bytes.length; at += slice) {
    crc = crc32(bytes.subarray(at, at + slice), crc);
    await pause();
  }
  return crc;
}
