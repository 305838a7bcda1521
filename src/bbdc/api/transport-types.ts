/** One HTTP request as the Bitbucket client sends it. */
export type HttpRequest = {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
};

/** One HTTP response, body read as text (and as the bytes received, for files), header names lower-case. */
export type HttpResponse = {
  status: number;
  headers: Record<string, string | undefined>;
  body: string;
  bytes?: Buffer;
};

/** A response whose body is still arriving: read it chunk by chunk, or whole (`text`), or `discard` it. */
export type OpenResponse = {
  status: number;
  headers: Record<string, string | undefined>;
  body: AsyncIterable<Buffer>;
  text(): Promise<string>;
  discard(): void;
};

/** TLS and timeout settings for a transport. */
export type TransportOptions = {
  ca?: string;
  insecure: boolean;
  timeoutMs: number;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (the process environment, or a test's). */
  env?: Readonly<Record<string, string | undefined>>;
};

/** Sends requests; a failure to connect is a TransportError with `sent: false`. */
export interface Transport {
  send(request: HttpRequest): Promise<HttpResponse>;
  /** Sends a request and resolves once the response's headers are in (a list's pages, api/page-scanner.ts). */
  open?(request: HttpRequest): Promise<OpenResponse>;
  close(): Promise<void>;
}

/** A request that got no HTTP response; `sent` says whether any of it may have reached the server. */
export class TransportError extends Error {
  readonly code: string;
  readonly sent: boolean;
  /** True when retrying cannot help, e.g. an untrusted TLS certificate. */
  readonly permanent: boolean;
  constructor(message: string, code: string, sent: boolean, cause?: unknown, permanent = false) {
    super(message, { cause });
    this.name = 'TransportError';
    this.code = code;
    this.sent = sent;
    this.permanent = permanent;
  }
}
