/**
 * Reads a Chromium profile as an offline auditor would (issue 30 item 4, decisions 251, 254): every file of
 * the profile (IndexedDB's LevelDB folder with its `.log`, `.ldb`/`.sst` tables and MANIFEST, the `.blob`
 * folder of values kept outside LevelDB, the origin private file system, caches, the rest), with every
 * compressed part opened:
 * - a LevelDB table's blocks (footer → index block → data blocks; a block's 5-byte trailer names its
 *   compression, 1 = Snappy);
 * - a LevelDB log's records, put back together across its 32 KiB blocks (a value can straddle one);
 * - Blink's own Snappy compression of an IndexedDB value (`FF 11 02` then raw Snappy), wherever it starts.
 * A table that does not parse, or a block compressed some other way, is an error, never a silent pass.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { uncompress } from 'snappyjs';

const TABLE_MAGIC = 0xdb4775248b80fb57n;
const LOG_BLOCK = 32_768;
const BLINK_SNAPPY = Buffer.from([0xff, 0x11, 0x02]);

function varint(bytes: Buffer, at: number): [value: number, next: number] {
  let value = 0;
  for (let shift = 0, i = at; i < bytes.length && shift < 64; shift += 7, i++) {
    value += (bytes[i]! & 0x7f) * 2 ** shift;
    if ((bytes[i]! & 0x80) === 0) return [value, i + 1];
  }
  throw new Error(`bad varint at ${at}`);
}

const snappy = (bytes: Buffer) => Buffer.from(uncompress(new Uint8Array(bytes)) as Uint8Array);

/** A table block's contents, opened according to its trailer. */
function tableBlock(file: Buffer, offset: number, size: number, path: string): Buffer {
  if (offset + size + 5 > file.length) throw new Error(`${path}: block at ${offset} runs past the end`);
  const contents = file.subarray(offset, offset + size);
  const type = file[offset + size];
  if (type === 0) return contents;
  if (type === 1) return snappy(contents);
  throw new Error(`${path}: block at ${offset} has compression type ${type}, which this reader cannot open`);
}

/** The values (block handles) of an index block's entries. */
function blockHandles(block: Buffer): { offset: number; size: number }[] {
  const restarts = block.readUInt32LE(block.length - 4);
  const end = block.length - 4 - restarts * 4;
  const handles: { offset: number; size: number }[] = [];
  for (let at = 0; at < end;) {
    const [, a] = varint(block, at);
    const [unshared, b] = varint(block, a);
    const [valueLength, c] = varint(block, b);
    const valueAt = c + unshared;
    const [offset, d] = varint(block, valueAt);
    const [size] = varint(block, d);
    handles.push({ offset, size });
    at = valueAt + valueLength;
  }
  return handles;
}

/** Every block of a LevelDB table, opened: data blocks, index and meta-index. */
export function tableBlocks(file: Buffer, path = 'table'): Buffer[] {
  if (file.length < 48 || file.readBigUInt64LE(file.length - 8) !== TABLE_MAGIC) throw new Error(`${path}: not a LevelDB table`);
  const footer = file.subarray(file.length - 48);
  const [metaOffset, a] = varint(footer, 0);
  const [metaSize, b] = varint(footer, a);
  const [indexOffset, c] = varint(footer, b);
  const [indexSize] = varint(footer, c);
  const index = tableBlock(file, indexOffset, indexSize, path);
  const blocks = [index, tableBlock(file, metaOffset, metaSize, path)];
  for (const handle of blockHandles(index)) blocks.push(tableBlock(file, handle.offset, handle.size, path));
  return blocks;
}

/** A LevelDB log's records (write batches, or MANIFEST edits), each put back together from its fragments. */
export function logRecords(file: Buffer): Buffer[] {
  const records: Buffer[] = [];
  let pending: Buffer[] = [];
  for (let block = 0; block < file.length; block += LOG_BLOCK) {
    const end = Math.min(block + LOG_BLOCK, file.length);
    for (let at = block; at + 7 <= end;) {
      const length = file.readUInt16LE(at + 4);
      const type = file[at + 6]!;
      if (type === 0 && length === 0) break; // zero padding (preallocated tail)
      const data = file.subarray(at + 7, Math.min(at + 7 + length, end));
      if (type === 1) records.push(data);
      else if (type === 2) pending = [data];
      else if (type === 3) pending.push(data);
      else if (type === 4) {
        records.push(Buffer.concat([...pending, data]));
        pending = [];
      }
      at += 7 + length;
    }
  }
  if (pending.length > 0) records.push(Buffer.concat(pending));
  return records;
}

/** Values Blink compressed with Snappy inside these bytes, opened (a candidate that is not Snappy is skipped). */
function blinkValues(bytes: Buffer): Buffer[] {
  const opened: Buffer[] = [];
  for (let at = bytes.indexOf(BLINK_SNAPPY); at >= 0; at = bytes.indexOf(BLINK_SNAPPY, at + 1)) {
    try {
      opened.push(snappy(bytes.subarray(at + 3)));
    } catch {
      // Not a compressed value: the three bytes happened to be there, or the value runs on past this piece.
    }
  }
  return opened;
}

/** A file's bytes as an auditor reads them: the raw file, and each compressed or fragmented part opened. */
export function readableParts(name: string, file: Buffer): Buffer[] {
  let parts = [file];
  if (/\.(ldb|sst)$/.test(name)) parts = [...parts, ...tableBlocks(file, name)];
  else if (/\.log$/.test(name) || name.startsWith('MANIFEST-')) parts = [...parts, ...logRecords(file)];
  return [...parts, ...parts.flatMap(blinkValues)];
}

/** The ways a value's text or bytes can sit in IndexedDB: Latin-1/UTF-8 (V8's one-byte strings) and UTF-16LE (two-byte strings). */
export const encodings = (text: string): Buffer[] => [Buffer.from(text, 'latin1'), Buffer.from(text, 'utf8'), Buffer.from(text, 'utf16le')];

/** Every file under `dir` (the profile's IndexedDB folder by default) with a readable part holding one of the needles, and how many files were read. */
export async function indexedDbFilesHolding(
  profile: string,
  needles: Buffer[],
  dir = join(profile, 'Default', 'IndexedDB'),
): Promise<{ holding: string[]; read: number; tables: number }> {
  const holding: string[] = [];
  let read = 0;
  let tables = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        await walk(path);
        continue;
      }
      const bytes = await readFile(path).catch(() => null);
      if (!bytes) continue; // removed while the folder was read
      read++;
      if (/\.(ldb|sst)$/.test(entry.name)) tables++;
      // Outside IndexedDB a `.log` or table may be another store's (the OPFS's own directory database, say): read whole if it does not parse.
      let parts: Buffer[];
      try {
        parts = readableParts(entry.name, bytes);
      } catch (error) {
        if (path.includes(join('Default', 'IndexedDB'))) throw error;
        parts = [bytes, ...blinkValues(bytes)];
      }
      if (parts.some((part) => needles.some((needle) => part.includes(needle)))) holding.push(path);
    }
  };
  await walk(dir);
  return { holding, read, tables };
}

/** Every file of the whole profile holding one of the needles (IndexedDB, its blobs, the origin private file system, caches, the rest). */
export const profileFilesHolding = (profile: string, needles: Buffer[]) => indexedDbFilesHolding(profile, needles, profile);
