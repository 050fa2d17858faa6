/** The part of s3rver's API (npm s3rver 3.7, no types of its own) the file-store tests use. */
declare module "s3rver" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  type S3rverOptions = {
    address?: string;
    port?: number;
    silent?: boolean;
    /** Where the buckets and objects are kept, as files. */
    directory: string;
    resetOnClose?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: { name: string }[];
  };

  /** The S3 event notification s3rver emits for each object it stores. */
  type S3rverEvent = { Records: { eventName: string; s3: { object: { key: string; size?: number } } }[] };

  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Creates the configured buckets (run() does it before listening). */
    configureBuckets(): Promise<void>;
    /** The request handler, for a server of one's own. */
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    on(event: "event", listener: (event: S3rverEvent) => void): this;
  }
}
