// The page's first moments, inlined into both builds' pages (index.html and lab.html) by
// trunk: names the page in the static shell, preloads the data the page fetches first, removes
// the shell the moment the app mounts, and registers the service worker.
(function () {
  var shell = document.getElementById('shell');
  var base = new URL(document.baseURI).pathname;
  var path = location.pathname.indexOf(base) === 0 ? location.pathname.slice(base.length) : '';
  // The page, as the app names it: `study/index.html` and `study/` are `study`.
  var page = path.replace(/(^|\/)(index|404)\.html$/, '').replace(/\/+$/, '');
  var titles = { play: 'Play', demo: 'Demo', model: 'Model', experiment: 'Experiments', results: 'Results', 'study/manage': 'Studies' };
  // The data the page will fetch as soon as it runs, asked for now, beside the wasm: on
  // a slow link each request waits a round trip (URLs as crates/web/src/study.rs and demo.rs
  // build them, relative to the <base>).
  var query = new URLSearchParams(location.search);
  var preload = function (href) {
    var link = document.createElement('link');
    link.rel = 'preload';
    link.as = 'fetch';
    link.crossOrigin = 'anonymous';
    link.href = href;
    document.head.appendChild(link);
  };
  var FIRST_TRIAL = 'oracle-spiral';
  // The front door (index.html's hidden copy of shell/home.html, in the people's build
  // only) is the first screen at the site's root, its links plain links until the app
  // mounts; every other page drops it.
  var home = document.getElementById('shell-home');
  var line = document.getElementById('shell-line');
  if (home && page === '') {
    while (home.firstChild) line.parentNode.insertBefore(home.firstChild, line);
    line.hidden = true;
    shell.setAttribute('aria-busy', 'false');
  }
  if (home) home.remove();
  var study = query.get('study') || '';
  var trial = query.get('trial') || '';
  if (page === 'study') {
    document.getElementById('shell-brand').textContent = 'Shapemaze study';
    line.textContent = 'Loading the study…';
    if (/^[A-Za-z0-9_-]+$/.test(study) && !query.has('config')) preload('studies/' + study + '.json');
  } else if (titles[page]) {
    var h1 = document.getElementById('shell-title');
    h1.textContent = titles[page];
    h1.hidden = false;
    if (page === 'demo') {
      preload('trials/index.json');
      if (/^[A-Za-z0-9_.-]+$/.test(trial)) preload('trials/' + trial + '.json');
      // With nothing named, the demo opens the first bundled trial: the first entry of
      // public/trials/index.json (tests/e2e/demo.test.mjs holds the two the same).
      else if (!trial && !query.has('race') && !query.has('shape')) preload('trials/' + FIRST_TRIAL + '.json');
    }
  }
  new MutationObserver(function (records, observer) {
    for (var i = 0; i < records.length; i++) {
      var added = records[i].addedNodes;
      for (var j = 0; j < added.length; j++) {
        var n = added[j];
        if (n.nodeType === 1 && n !== shell && n.tagName !== 'SCRIPT' && n.tagName !== 'NOSCRIPT') {
          // A link of the static front door that had the keyboard's focus hands it to the
          // app's link to the same address, so a keyboard user keeps their place.
          var focused = document.activeElement;
          var same = null;
          if (focused && focused.href && shell.contains(focused)) {
            var links = n.querySelectorAll('main a[href]');
            for (var k = 0; k < links.length && !same; k++) {
              if (links[k].href === focused.href && links[k].textContent === focused.textContent) same = links[k];
            }
          }
          shell.remove();
          if (same) same.focus();
          observer.disconnect();
          return;
        }
      }
    }
  }).observe(document.body, { childList: true });
  addEventListener('unhandledrejection', function () {
    if (shell.isConnected) {
      line.hidden = false;
      line.textContent =
        'Shapemaze could not start here: it needs a browser with WebAssembly. Reload to try again.';
    }
  });
})();
// Offline after the first visit (public/sw.js); browsers allow it on https and localhost.
// 'sw.js' is relative to the <base> above, so its scope is the site's public URL.
if ('serviceWorker' in navigator) {
  addEventListener('load', () => navigator.serviceWorker.register('sw.js').catch(() => {}));
}
