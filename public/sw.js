// Shapemaze's service worker: after the first visit the whole app works offline (a talk
// must not depend on the venue's wifi). The build stamps BUILD with a hash of the built
// files (Trunk.toml's post-build hook), so a new deploy installs a new cache and drops the
// old one.
const BUILD = '__SHAPEMAZE_BUILD__';
// The site's public URL (`/`, or a sub-path such as /shapemaze/): the worker's scope.
const BASE = new URL(self.registration.scope).pathname;
const CACHE = `shapemaze-${BASE}-${BUILD}`;
// The site is two builds (scripts/site.sh): the lab's pages are lab.html, every other address
// the people's index.html (crates/core/src/site.rs, `Build::pages`). Offline, each address
// gets its own build's page, never the other's.
const LAB = ['model', 'experiment', 'results', 'study/manage'];
const pageOf = (pathname) => {
  const page = pathname.slice(BASE.length).replace(/(^|\/)(index|404)\.html$/, '').replace(/\/+$/, '');
  return `${BASE}${LAB.includes(page) ? 'lab.html' : 'index.html'}`;
};

self.addEventListener('install', (event) => {
  // Cache the app shell now; hashed assets are cached as the page loads them.
  event.waitUntil(
    caches.open(CACHE).then((c) => c.addAll([`${BASE}index.html`, `${BASE}lab.html`, `${BASE}trials/index.json`])).then(() => self.skipWaiting()),
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
    // Pages: the network first (a new deploy shows at once), the cached page of the
    // address's build offline.
    const page = pageOf(url.pathname);
    event.respondWith(
      fetch(req)
        .then((res) => {
          // A static host answers an unknown address with its 404.html, the people's page.
          if (res.ok || (res.status === 404 && page.endsWith('index.html'))) {
            const copy = res.clone();
            caches.open(CACHE).then((c) => c.put(page, copy));
          }
          return res;
        })
        .catch(() => caches.match(page)),
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
