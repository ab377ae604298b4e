/* posekit page: the client of the engine's Web Worker.
 * One worker runs one command at a time; PK_ENGINE.run(argv, files, onProgress)
 * queues a run and resolves with {status, stdout, stderr, files}.  cancel()
 * ends the running command by ending the worker and starting a fresh one
 * (the engine keeps no state between runs).
 * The worker: from file:// Chromium refuses new Worker(URL) of a file, so the
 * site's posekit-engine.js (web/build.sh), a classic script, gives
 * PosekitEngine.createWorker(), which starts it from a Blob URL. */
(function () {
  'use strict';
  var worker = null;
  var ready = null; /* promise of the version */
  var readyResolve = null;
  var readyReject = null;
  var queue = [];
  var current = null;
  var nextId = 1;
  var listeners = [];
  var failListeners = [];

  function makeWorker() {
    if (window.PosekitEngine && typeof window.PosekitEngine.createWorker === 'function') return window.PosekitEngine.createWorker();
    throw new Error('posekit-engine.js is missing: build the site (bash web/build.sh) and open build-web/site/index.html');
  }

  function start() {
    ready = new Promise(function (res, rej) { readyResolve = res; readyReject = rej; });
    ready.catch(function (e) { failListeners.forEach(function (f) { f(e); }); });
    try {
      worker = makeWorker();
    } catch (e) {
      worker = null;
      readyReject(e);
      return;
    }
    worker.onmessage = onMessage;
    worker.onerror = function (ev) {
      var msg = (ev && ev.message) || 'worker error';
      if (ev && ev.preventDefault) ev.preventDefault();
      readyReject(new Error(msg));
      if (current) {
        var c = current;
        current = null;
        c.reject(new Error(msg));
        restart();
      }
    };
  }

  function restart() {
    if (worker) worker.terminate();
    worker = null;
    start();
    pump();
  }

  function onMessage(ev) {
    var m = ev.data || {};
    if (m.type === 'error') {
      readyReject(new Error(m.message || 'the engine did not load'));
      return;
    }
    if (m.type === 'ready') {
      readyResolve(m.version || '');
      listeners.forEach(function (f) { f(m.version || ''); });
      return;
    }
    if (!current || m.id !== current.id) return;
    if (m.type === 'progress') {
      if (current.onProgress) current.onProgress(m.done, m.what || '');
      return;
    }
    if (m.type === 'done') {
      var c = current;
      current = null;
      c.resolve({
        status: m.status, stdout: m.stdout || '', stderr: m.stderr || '',
        files: (m.files || []).map(function (f) { return { name: f.name, data: f.data }; })
      });
      pump();
    }
  }

  function pump() {
    if (current || !queue.length) return;
    current = queue.shift();
    var c = current;
    ready.then(function () {
      if (current !== c) return;
      /* the page keeps its copies: the buffers are cloned, not transferred */
      worker.postMessage({ type: 'run', id: c.id, argv: c.argv, files: c.files });
    }, function (e) {
      if (current !== c) return;
      current = null;
      c.reject(e);
      pump();
    });
  }

  function run(argv, files, onProgress) {
    return new Promise(function (resolve, reject) {
      if (!worker) start();
      queue.push({ id: nextId++, argv: argv, files: files, onProgress: onProgress, resolve: resolve, reject: reject });
      pump();
    });
  }

  function cancel() {
    var dropped = queue.splice(0);
    var c = current;
    current = null;
    dropped.forEach(function (q) { q.reject(new Error('cancelled')); });
    if (c) c.reject(new Error('cancelled'));
    restart();
  }

  function busy() { return !!current || queue.length > 0; }

  window.PK_ENGINE = {
    run: run,
    cancel: cancel,
    busy: busy,
    onReady: function (f) { listeners.push(f); },
    onFail: function (f) { failListeners.push(f); },
    start: function () { if (!worker) start(); return ready; }
  };
})();
