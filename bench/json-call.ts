/** A REST call with a key, answering the parsed JSON body; anything but 2xx throws with the body's start. */
export type JsonCall = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => Promise<T>;

export function jsonCaller(origin: string, key: string): JsonCall {
  return async <T>(method: string, path: string, body?: unknown) => {
    const res = await fetch(`${origin}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A photo uploaded as the raw body over REST (`/media/upload`), setup for a bench: answers its mediaId. */
export async function uploadPhoto(
  origin: string,
  key: string,
  jpeg: Buffer,
  fields: { productId: string; credit: string; alt: string; spotId?: string | undefined },
): Promise<string> {
  const params = new URLSearchParams({ productId: fields.productId, credit: fields.credit, alt: fields.alt });
  if (fields.spotId) params.set('spotId', fields.spotId);
  const res = await fetch(`${origin}/api/v1/media/upload?${params}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'image/jpeg' },
    body: new Uint8Array(jpeg),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`setup: upload answered ${res.status}: ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { mediaId: string }).mediaId;
}
