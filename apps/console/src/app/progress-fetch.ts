/**
 * A `fetch` for the API client that reports how much of the request body has been sent. fetch
 * itself has no upload progress, so the call goes through XMLHttpRequest; the client above it
 * keeps its headers, envelope and error rules unchanged.
 */
export function progressFetch(onProgress: (percent: number) => void): typeof fetch {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(init.method ?? "GET", input instanceof Request ? input.url : String(input));
      for (const [name, value] of new Headers(init.headers)) xhr.setRequestHeader(name, value);
      xhr.withCredentials = init.credentials === "include";
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0)
          onProgress(Math.round((event.loaded / event.total) * 100));
      };
      xhr.onload = () => {
        // A body-less Response is valid for every status; an empty text is not (204, 304).
        resolve(new Response(xhr.responseText || null, { status: xhr.status, statusText: xhr.statusText }));
      };
      // Rejections mirror fetch, so the client reports them as transport failures and time-outs.
      xhr.onerror = () => reject(new TypeError("network request failed"));
      xhr.onabort = () => reject(new DOMException("aborted", "AbortError"));
      init.signal?.addEventListener("abort", () => xhr.abort(), { once: true });
      xhr.send((init.body ?? null) as XMLHttpRequestBodyInit | null);
    });
}
