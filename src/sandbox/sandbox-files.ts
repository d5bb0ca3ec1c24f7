import { randomBytes } from 'node:crypto';

/** One uploaded file, as the sandbox keeps it between Slack's three upload steps and after. */
export interface SandboxFile {
  id: string;
  name: string;
  title: string;
  altText?: string;
  /** The length announced in files.getUploadURLExternal. */
  length: number;
  /** The secret part of the upload URL (Slack's upload URLs need no token: the URL is the credential). */
  uploadToken: string;
  bytes?: Buffer;
  mimetype: string;
  /** Set by files.completeUploadExternal: the file is shared and may be served. */
  completed: boolean;
}

/** A file larger than this is refused at files.getUploadURLExternal (Medic's charts are ~100 kB). */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** The newest files kept; older ones are forgotten (the page then shows their alt text only). */
export const MAX_FILES = 50;
/** All the files' bytes together, so a long-running sandbox stays bounded whatever is uploaded. */
export const MAX_FILES_BYTES = 40 * 1024 * 1024;

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** What a file's bytes are, from their signature: a name proves nothing. */
export function sniffMimetype(bytes: Buffer): string {
  if (bytes.subarray(0, 8).equals(PNG)) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 6).toString('latin1') === 'GIF89a' || bytes.subarray(0, 6).toString('latin1') === 'GIF87a') return 'image/gif';
  return 'application/octet-stream';
}

/** The sandbox's uploaded files, capped in number and in bytes (oldest first out). */
export class SandboxFiles {
  private readonly files = new Map<string, SandboxFile>();

  constructor(
    private readonly maxFiles = MAX_FILES,
    private readonly maxBytes = MAX_FILES_BYTES,
  ) {}

  /** files.getUploadURLExternal: a new file id and the secret of its upload URL. */
  reserve(input: { name: string; title?: string; altText?: string; length: number }): SandboxFile {
    const file: SandboxFile = {
      id: `F${randomBytes(6).toString('hex').toUpperCase().slice(0, 10)}`,
      name: input.name,
      title: input.title ?? input.name,
      ...(input.altText ? { altText: input.altText } : {}),
      length: input.length,
      uploadToken: randomBytes(16).toString('hex'),
      mimetype: 'application/octet-stream',
      completed: false,
    };
    this.files.set(file.id, file);
    this.bound();
    return file;
  }

  /** The upload step: the bytes for a reserved file, by its id and its URL's secret. */
  store(id: string, token: string, bytes: Buffer): SandboxFile | undefined {
    const file = this.files.get(id);
    if (!file || file.uploadToken !== token || file.completed) return undefined;
    file.bytes = bytes;
    file.mimetype = sniffMimetype(bytes);
    this.bound();
    return this.files.get(id);
  }

  get(id: string): SandboxFile | undefined {
    return this.files.get(id);
  }

  get size(): number {
    return this.files.size;
  }

  /** The bytes held in all, for tests and the bound. */
  bytes(): number {
    let total = 0;
    for (const file of this.files.values()) total += file.bytes?.length ?? 0;
    return total;
  }

  private bound(): void {
    for (const id of this.files.keys()) {
      if (this.files.size <= this.maxFiles && this.bytes() <= this.maxBytes) return;
      this.files.delete(id);
    }
  }
}

/**
 * The file part of a multipart/form-data body (what @slack/web-api posts to the upload URL); a
 * body of another type is the file's bytes themselves, as Slack also accepts.
 */
export function uploadedBytes(body: Buffer, contentType: string | undefined): Buffer | undefined {
  const boundary = /^multipart\/form-data;.*boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType ?? '');
  if (!boundary) return body;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2] ?? ''}`);
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const headersEnd = body.indexOf('\r\n\r\n', at);
    if (headersEnd < 0) return undefined;
    const headers = body.subarray(at, headersEnd).toString('latin1');
    const next = body.indexOf(delimiter, headersEnd + 4);
    if (next < 0) return undefined;
    if (/content-disposition:[^\r\n]*filename=/i.test(headers)) return body.subarray(headersEnd + 4, next - 2); // the CRLF before the delimiter
    at = next;
  }
  return undefined;
}
