export interface HttpAnswer<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

/** One REST call with a key; the body is parsed JSON. */
export async function rest<T = any>(
  baseUrl: string,
  key: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<HttpAnswer<T>> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (key !== undefined) (init.headers as Record<string, string>).authorization = `Bearer ${key}`;
  if (body !== undefined) {
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  const res = await fetch(baseUrl + path, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text === '' ? undefined : JSON.parse(text)) as T };
}
