// The few WebAssembly JavaScript API types Folio uses (src/search/vector-index.ts). TypeScript ships them only in
// its DOM and worker libraries, which a Node service does not load, and @types/node 20 does not declare them.
declare namespace WebAssembly {
  class Module {
    constructor(bytes: ArrayBufferView | ArrayBuffer);
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    readonly buffer: ArrayBuffer;
    grow(delta: number): number;
  }
}
