import { setDeviceKeyRoot } from '../db/device-seal.ts';

/**
 * The origin private file system the device key of decision 254 lives in, given to happy-dom (which has
 * none): a directory of files in memory, with the calls the device key uses.
 */
export class MemoryDir {
  files = new Map<string, Uint8Array>();
  async getFileHandle(name: string, options?: { create?: boolean }) {
    if (!this.files.has(name)) {
      if (!options?.create) throw new DOMException('missing', 'NotFoundError');
      this.files.set(name, new Uint8Array());
    }
    const files = this.files;
    return {
      getFile: async () => new Blob([files.get(name)! as Uint8Array<ArrayBuffer>]),
      createWritable: async () => {
        const parts: Uint8Array[] = [];
        return {
          write: async (data: Uint8Array) => void parts.push(new Uint8Array(data)),
          close: async () => void files.set(name, new Uint8Array(Buffer.concat(parts))),
        };
      },
    };
  }
  async removeEntry(name: string) {
    if (!this.files.delete(name)) throw new DOMException('missing', 'NotFoundError');
  }
  async *keys() {
    yield* [...this.files.keys()];
  }
}

/** Gives the device-seal code an empty in-memory directory for its key files; returns it. */
export function useMemoryOpfs(): MemoryDir {
  const dir = new MemoryDir();
  setDeviceKeyRoot(async () => dir as unknown as FileSystemDirectoryHandle);
  return dir;
}
