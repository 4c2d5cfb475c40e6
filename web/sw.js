// sw.js — the service worker: the site keeps working offline after one visit.
//
// Registered by js/offline.js as `sw.js?v=<siteHash>` (onetool-manifest.json, written by
// build.py): a new build has a new hash, hence a new script URL, hence a new worker.
//   install   caches every file the manifest lists (and the manifest) in "onetool-site-<hash>"
//   activate  deletes the other "onetool-site-*" caches, takes over open pages
//   fetch     same-origin GETs: the manifest network first (the cached copy offline), every
//             other file from this version's cache, else the network.
// Cached responses are the server's own, headers included: under `build.py serve` they keep
// COOP/COEP/CORP, so pages served from the cache stay cross-origin isolated; from a plain
// static host they have none, as before.

const VERSION = new URL(self.location.href).searchParams.get("v") || "unversioned";
const PREFIX = "onetool-site-";
const CACHE = PREFIX + VERSION;
const MANIFEST = new URL("onetool-manifest.json", self.location.href).href;
const ROOT = new URL("./", self.location.href).href;

self.addEventListener("install", (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// The URLs this version caches (without query): others are left to the network, untouched.
let known = null;
const knownReady = loadKnown();

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(ROOT)) return;
  const url = new URL(request.url);
  url.search = "";
  if (url.href === MANIFEST || url.pathname.endsWith("/sw.js")) {
    event.respondWith(networkFirst(request));
  } else if (known === null || known.has(url.href)) {
    event.respondWith(cacheFirst(request));
  }
});

async function loadKnown() {
  const cache = await caches.open(CACHE);
  const keys = await cache.keys();
  if (keys.length) known = new Set(keys.map((request) => request.url));
}

async function precache() {
  const response = await fetch(MANIFEST, { cache: "no-cache" });
  if (!response.ok) throw new Error(`sw: ${MANIFEST}: HTTP ${response.status}`);
  const manifest = await response.clone().json();
  const cache = await caches.open(CACHE);
  const paths = Object.keys(manifest.files ?? {}).filter((path) => path !== "sw.js");
  await cache.addAll(paths.map((path) => new Request(new URL(path, ROOT).href, { cache: "no-cache" })));
  // The folder itself ("/") is the playground where the host serves index.html for it.
  const folder = await fetch(ROOT, { cache: "no-cache" }).catch(() => null);
  if (folder?.ok) await cache.put(ROOT, folder);
  await cache.put(MANIFEST, response);
  await loadKnown();
}

async function cacheFirst(request) {
  await knownReady;
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request, { ignoreSearch: true });
  if (hit) return hit;
  return fetch(request);
}

// The cached manifest stays the one whose files were cached (a newer one comes with a new worker).
async function networkFirst(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const hit = await (await caches.open(CACHE)).match(request, { ignoreSearch: true });
    if (hit) return hit;
    throw error;
  }
}
