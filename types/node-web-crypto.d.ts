// The Web Crypto types the server code names (tsconfig.node.json, decision 244). Node has Web Crypto as a
// global (`crypto.subtle`), but @types/node declares `CryptoKey` only as a value and the other names only
// under `webcrypto`, while the DOM lib (which the Node project leaves out) declares them as global types.
import type { webcrypto } from 'node:crypto';

declare global {
  type CryptoKey = webcrypto.CryptoKey;
  type CryptoKeyPair = webcrypto.CryptoKeyPair;
  type JsonWebKey = webcrypto.JsonWebKey;
  type BufferSource = webcrypto.BufferSource;
}
