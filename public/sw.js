// Shapemaze's service worker: after the first visit the whole app works offline (a talk
// must not depend on the venue's wifi). The build stamps BUILD with a hash of the built
// files (Trunk.toml's post-build hook), so a new deploy installs a new cache and drops the
// old one.
const BUILD = '__SHAPEMAZE_BUILD__';
// The site's public URL (`/`, or a sub-path such as /shapemaze/): the worker's scope.
const BASE = new URL(self.registration.scope).pathname;
const CACHE = `shapemaze-${BASE}-${BUILD}`;

self.addEventListener('install', (event) => {
  // Cache the app shell now; hashed assets are cached as the page loads them.
  event.waitUntil(
    caches.open(CACHE).then((c) => c.addAll([BASE, `${BASE}index.html`, `${BASE}trials/index.json`])).then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith(`shapemaze-${BASE}-`) && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  // Only this site's GETs; model endpoints, uploads and proxies always go to the network.
  const server = (p) => url.pathname.startsWith(`/${p}/`) || url.pathname.startsWith(`${BASE}${p}/`);
  if (req.method !== 'GET' || url.origin !== self.location.origin || server('proxy') || server('api')) {
    return;
  }
  if (req.mode === 'navigate') {
    // Pages: the network first (a new deploy shows at once), the cached shell offline.
    event.respondWith(
      fetch(req)
        .then((res) => {
          // A static host answers a deep link with its 404.html, which is the app too.
          if (res.ok || res.status === 404) {
            const copy = res.clone();
            caches.open(CACHE).then((c) => c.put(`${BASE}index.html`, copy));
          }
          return res;
        })
        .catch(() => caches.match(`${BASE}index.html`)),
    );
    return;
  }
  // Built files carry their hash in their names: the cache first, then the network.
  event.respondWith(
    caches.match(req).then(
      (hit) =>
        hit ||
        fetch(req).then((res) => {
          if (res.ok) {
            const copy = res.clone();
            caches.open(CACHE).then((c) => c.put(req, copy));
          }
          return res;
        }),
    ),
  );
});
