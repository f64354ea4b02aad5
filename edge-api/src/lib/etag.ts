/**
 * Strong ETags of public answers (decision 166): a hash of the body, so every process and isolate names
 * the same text alike. The Node entry sends a compressed copy under the tag with its encoding appended
 * (`"tag-br"`), as a strong tag must differ between byte-different representations.
 */
export async function contentTag(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return `"${btoa(String.fromCharCode(...digest.subarray(0, 12)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')}"`;
}

/** The tag a compressed copy of an answer tagged `etag` goes out under. */
export function encodedTag(etag: string, encoding: string): string {
  return `${etag.slice(0, -1)}-${encoding}"`;
}

const ENCODED_SUFFIX = /-(?:br|gzip)"$/;

/**
 * Whether `If-None-Match` names `etag` (or a compressed copy of it), by the weak comparison RFC 9110
 * asks of If-None-Match: a `W/` prefix is ignored; `*` matches.
 */
export function matchesTag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag || tag.replace(ENCODED_SUFFIX, '"') === etag;
  });
}
