// offline.js — register the service worker (../sw.js) so the site works offline after one visit.
//
// Imported by each page (index.html, embed.html, agent.html). The worker's URL carries the
// site's version (`siteHash` of onetool-manifest.json), so a new build installs a new worker,
// which caches the new files and deletes the old ones (sw.js). Skipped where service workers
// are unavailable (e.g. not a secure context); registering waits for the page's `load` event and
// for its first runtime to be ready ("onetool-ready", onetool.js; at most READY_WAIT_MS), so
// caching the site does not compete with the first boot's downloads (0.6 s of a first visit,
// measured). `offlineReady` resolves to the registration once a worker is active (or to null
// when skipped or failed).

const SW_URL = new URL("../sw.js", import.meta.url);
const MANIFEST_URL = new URL("../onetool-manifest.json", import.meta.url);
const READY_WAIT_MS = 60_000; // a page whose runtime never boots still gets offline use

export const offlineReady = register();

async function register() {
  if (!("serviceWorker" in navigator) || !globalThis.isSecureContext) return null;
  if (document.readyState !== "complete") await new Promise((resolve) => addEventListener("load", resolve, { once: true }));
  await new Promise((resolve) => {
    addEventListener("onetool-ready", resolve, { once: true });
    setTimeout(resolve, READY_WAIT_MS);
  });
  try {
    const response = await fetch(MANIFEST_URL, { cache: "no-cache" });
    if (!response.ok) throw new Error(`${MANIFEST_URL}: HTTP ${response.status}`);
    const { siteHash } = await response.json();
    const url = new URL(SW_URL);
    url.searchParams.set("v", siteHash ?? "unversioned");
    await navigator.serviceWorker.register(url, { scope: new URL("../", import.meta.url).pathname });
    return await navigator.serviceWorker.ready;
  } catch (error) {
    console.warn("onetool: offline use is not available:", error?.message ?? error);
    return null;
  }
}
