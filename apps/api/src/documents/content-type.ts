import { isUtf8 } from 'node:buffer';
import { fileTypeFromBuffer } from 'file-type';
import { fileTypeName } from '@hdp/contract';

/** Types whose files carry no magic bytes: accepted when declared and the bytes look like text. */
const TEXT_TYPES = new Set(['text/plain', 'text/csv', 'application/json', 'text/markdown', 'text/tab-separated-values']);

export type ContentTypeVerdict = { ok: true; contentType: string } | { ok: false; detail: string };

/**
 * A window cut out of a longer file may end inside a multi-byte character: drop that incomplete
 * sequence (at most 3 bytes), so that only bytes the file really got wrong make it "not text".
 */
export function withoutPartialCharacter(head: Buffer): Buffer {
  for (let back = 1; back <= Math.min(4, head.length); back++) {
    const byte = head[head.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? head.subarray(0, head.length - back) : head;
  }
  return head;
}

/** UTF-8 without NUL bytes; `partOfFile` when the bytes are the start of a longer file. */
const looksLikeText = (head: Buffer, partOfFile: boolean) => {
  const text = partOfFile ? withoutPartialCharacter(head) : head;
  return !text.includes(0) && isUtf8(text);
};

/**
 * Decides a file's content type from its first bytes, not from what the client claims: the
 * magic bytes must name a type in the allow-list (and agree with the declared type when there is
 * one); text types, which have no magic bytes, must be declared and look like UTF-8 text.
 */
export async function checkContentType(
  head: Buffer,
  declared: string,
  allowed: readonly string[],
  fileSize = head.length,
): Promise<ContentTypeVerdict> {
  const declaredType = declared.split(';')[0]!.trim().toLowerCase();
  const detected = await fileTypeFromBuffer(head);
  const list = allowed.map(fileTypeName).join(', ');
  if (detected) {
    if (!allowed.includes(detected.mime)) return { ok: false, detail: `Files of type ${fileTypeName(detected.mime)} are not accepted. Accepted types: ${list}.` };
    const generic = declaredType === '' || declaredType === 'application/octet-stream';
    if (!generic && declaredType !== detected.mime) {
      return { ok: false, detail: `The file's content is ${fileTypeName(detected.mime)}, not the declared ${fileTypeName(declaredType)}.` };
    }
    return { ok: true, contentType: detected.mime };
  }
  if (TEXT_TYPES.has(declaredType) && allowed.includes(declaredType) && looksLikeText(head, fileSize > head.length)) {
    return { ok: true, contentType: declaredType };
  }
  return { ok: false, detail: `The file's type could not be recognised as one of the accepted types: ${list}.` };
}
