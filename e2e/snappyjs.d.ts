/** The Snappy decompressor the IndexedDB file reader uses (e2e/indexeddb-files.ts); the package ships no types. */
declare module 'snappyjs' {
  export function uncompress(compressed: Uint8Array | ArrayBuffer, maxLength?: number): Uint8Array | ArrayBuffer;
  export function compress(uncompressed: Uint8Array | ArrayBuffer): Uint8Array | ArrayBuffer;
}
