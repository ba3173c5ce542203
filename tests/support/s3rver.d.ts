// s3rver ships no types: only what tests/support/s3.ts uses.
declare module 's3rver' {
  import type { Server } from 'node:http';
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    resetOnClose?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  }
  interface S3rverContext {
    method: string;
    path: string;
    query: Record<string, string | string[] | undefined>;
    status: number;
    type: string;
    body: unknown;
  }
  type Middleware = (ctx: S3rverContext, next: () => Promise<void>) => Promise<void>;
  export default class S3rver {
    /** Koa's middleware list (s3rver is a Koa app). */
    middleware: Middleware[];
    use(middleware: Middleware): this;
    store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
    constructor(options: S3rverOptions);
    httpServer?: Server;
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
