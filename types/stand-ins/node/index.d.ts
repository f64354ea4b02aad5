// Stands in for @types/node in the PWA's and the Worker's projects (tsconfig.pwa.json, tsconfig.worker.json;
// decision 244). Library typings say `/// <reference types="node" />` (pg, papaparse, vite), which would
// give every file of the project Node's globals (`process`, `Buffer`, `node:fs`): through these projects'
// `typeRoots` that reference resolves here instead, to nothing. Node's own types stay in tsconfig.json and
// tsconfig.node.json.
export {};
