// The HTTP API client: the page uses the public /v1 routes only, like any other client.
// Words in answers (combo labels, refusals, row names) follow Accept-Language.

import { store } from "./store.js";

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code || null;
    this.problem = problem;
  }
}

/**
 * request("POST", "/v1/banting/validate", {body, token}) -> {data, etag}
 * Throws ApiError for a problem answer (4xx/5xx), TypeError when the server is unreachable.
 */
export async function request(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json", "Accept-Language": store.lang };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
    credentials: "omit",
  });
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data || {});
  return { data, etag: response.headers.get("ETag") };
}

export const get = (path, options) => request("GET", path, options);
export const post = (path, body, options = {}) => request("POST", path, { ...options, body });
