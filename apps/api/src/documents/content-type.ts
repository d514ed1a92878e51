import { fileTypeFromBuffer } from 'file-type';

/** Types whose files carry no magic bytes: accepted when declared and the bytes look like text. */
const TEXT_TYPES = new Set(['text/plain', 'text/csv', 'application/json', 'text/markdown', 'text/tab-separated-values']);

export type ContentTypeVerdict = { ok: true; contentType: string } | { ok: false; detail: string };

const looksLikeText = (head: Buffer) => !head.includes(0) && !head.toString('utf8').includes('\uFFFD');

/**
 * Decides a file's content type from its first bytes, not from what the client claims: the
 * magic bytes must name a type in the allow-list (and agree with the declared type when there is
 * one); text types, which have no magic bytes, must be declared and look like UTF-8 text.
 */
export async function checkContentType(head: Buffer, declared: string, allowed: readonly string[]): Promise<ContentTypeVerdict> {
  const declaredType = declared.split(';')[0]!.trim().toLowerCase();
  const detected = await fileTypeFromBuffer(head);
  const list = allowed.join(', ');
  if (detected) {
    if (!allowed.includes(detected.mime)) return { ok: false, detail: `Files of type ${detected.mime} are not accepted. Accepted types: ${list}.` };
    const generic = declaredType === '' || declaredType === 'application/octet-stream';
    if (!generic && declaredType !== detected.mime) {
      return { ok: false, detail: `The file's content is ${detected.mime}, not the declared ${declaredType}.` };
    }
    return { ok: true, contentType: detected.mime };
  }
  if (TEXT_TYPES.has(declaredType) && allowed.includes(declaredType) && looksLikeText(head)) {
    return { ok: true, contentType: declaredType };
  }
  return { ok: false, detail: `The file's type could not be recognised as one of the accepted types: ${list}.` };
}
