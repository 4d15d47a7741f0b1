import { createHash } from 'node:crypto';

export const md5 = (text: string): string => createHash('md5').update(text).digest('hex');

/** Hash-authentication parameters exactly as Epom clients compute them. */
export const hashAuth = (username: string, password: string, timestamp: number): Record<string, string> => ({
  username,
  timestamp: String(timestamp),
  hash: md5(md5(password) + String(timestamp)),
});

export const postForm = (
  url: string,
  fields: Record<string, string | string[]>,
  headers: Record<string, string> = {},
) => {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const item of [value].flat()) body.append(name, item);
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
    redirect: 'manual',
  });
};

export const withQuery = (url: string, query: Record<string, string>): string => `${url}?${new URLSearchParams(query)}`;

export const setClock = (baseUrl: string, body: { now: string | null } | { advanceSeconds: number }) =>
  fetch(`${baseUrl}/_local/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** A small client for one local service and one API key. */
export const apiClient = (baseUrl: string, apiKey: string) => {
  const headers = { 'X-Api-Key': apiKey };
  return {
    get: (path: string) => fetch(`${baseUrl}${path}`, { headers }),
    post: (path: string, fields: Record<string, string | string[]> = {}) =>
      postForm(`${baseUrl}${path}`, fields, headers),
    delete: (path: string) => fetch(`${baseUrl}${path}`, { method: 'DELETE', headers }),
  };
};

export const importCatalog = async (baseUrl: string, catalog: unknown): Promise<void> => {
  const response = await fetch(`${baseUrl}/_local/catalog`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(catalog),
  });
  if (response.status !== 200) throw new Error(`catalog refused: ${await response.text()}`);
};

export const postJson = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** An answer's JSON body less what differs on every request (its `requestId`), to compare two answers. */
export const bodyWithoutRequestId = (text: string): unknown => {
  const body = JSON.parse(text) as Record<string, unknown>;
  delete body.requestId;
  return body;
};
