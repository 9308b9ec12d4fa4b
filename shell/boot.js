// The page's first moments, inlined into both builds' pages (index.html and lab.html) by
// trunk: names the page in the static shell and says what it is about to show, counts the
// app's download on the loading line once it has taken a second, preloads the data the page
// fetches first, removes the shell the moment the app mounts, and registers the service
// worker. It holds no rule of the game: the app's own code decides everything it shows.
(function () {
  var shell = document.getElementById('shell');
  var base = new URL(document.baseURI).pathname;
  var path = location.pathname.indexOf(base) === 0 ? location.pathname.slice(base.length) : '';
  // The page, as the app names it: `study/index.html` and `study/` are `study`.
  var page = path.replace(/(^|\/)(index|404)\.html$/, '').replace(/\/+$/, '');
  var titles = { play: 'Play', demo: 'Demo', model: 'Model', experiment: 'Experiments', results: 'Results', 'study/manage': 'Studies' };
  // What the people's pages are about to show, in words (never a trial's maze or shape).
  var about = {
    play: 'A trial of your own: solve a maze one move at a time, name the shape its open cells form, then draw a maze of that shape.',
    demo: 'A recorded trial, replayed step by step: space plays and pauses, the arrow keys step, F goes full screen.',
  };
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
    if (about[page]) {
      var lead = document.getElementById('shell-about');
      lead.textContent = about[page];
      lead.hidden = false;
    }
    if (page === 'demo') {
      preload('trials/index.json');
      if (/^[A-Za-z0-9_.-]+$/.test(trial)) preload('trials/' + trial + '.json');
      // With nothing named, the demo opens the first bundled trial: the first entry of
      // public/trials/index.json (tests/e2e/demo.test.mjs holds the two the same).
      else if (!trial && !query.has('race') && !query.has('shape')) preload('trials/' + FIRST_TRIAL + '.json');
    }
  }
  // The app's download, counted on the loading line once it has taken a second: the bytes
  // of the wasm received of its size, which scripts/site.sh writes into the page (the
  // count is of the bytes as they arrive unpacked, as the size is). The response the app
  // compiles is the browser's own (the count reads a copy), so the browser's cache of the
  // compiled code still serves the next visit.
  var size = Number((document.querySelector('meta[name="shapemaze-wasm-bytes"]') || {}).content) || 0;
  var received = -1;
  var counting = false;
  var kb = function (n) {
    return Math.round(n / 1024).toLocaleString('en') + ' KB';
  };
  var count = function () {
    if (!counting || received < 0 || !shell.isConnected || page === '') return;
    line.textContent =
      size && received >= size
        ? 'Downloaded Shapemaze (' + kb(size) + '), starting…'
        : 'Downloading Shapemaze: ' + kb(received) + (size ? ' of ' + kb(size) : '') + '…';
  };
  setTimeout(function () {
    counting = true;
    count();
  }, Math.max(0, 1000 - performance.now()));
  var fetched = window.fetch;
  if (fetched && window.ReadableStream) {
    window.fetch = function (input) {
      var answer = fetched.apply(this, arguments);
      var url = typeof input === 'string' ? input : (input && input.url) || String(input);
      if (!/\.wasm(\?|$)/.test(url)) return answer;
      window.fetch = fetched;
      return answer.then(function (res) {
        if (!res.body || !res.ok) return res;
        received = 0;
        var reader = res.clone().body.getReader();
        var next = function () {
          reader.read().then(function (r) {
            if (r.done) return;
            received += r.value.byteLength;
            count();
            next();
          }, function () {});
        };
        next();
        return res;
      });
    };
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
