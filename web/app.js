/* posekit page: the wiring — the language, the file input and drops, the
 * steps' radio group and forms, the engine's state.  The parts:
 * i18n.js (texts), engine.js (the worker's client), ui.js (elements and
 * the result panel), files.js (the files), dancers.js (the size step's
 * dancers), steps.js (the steps), see.js (the pictures).  Every operation
 * is the posekit command line run by the engine on copies of the files
 * the page holds in memory; nothing leaves the page. */
(function () {
  'use strict';
  var T = PK_I18N.t;
  var E = PK_ENGINE;
  var $ = PK_UI.$;

  /* ---------- wiring ---------- */

  function selectOp(name) {
    PK_SEE.stopPlay();
    var forms = document.querySelectorAll('form.op');
    for (var i = 0; i < forms.length; i++) forms[i].hidden = forms[i].getAttribute('data-op') !== name;
    var r = document.querySelector('input[name=op][value="' + name + '"]');
    if (r) r.checked = true;
  }

  function init() {
    var q = /[?#&]lang=(ja|en)\b/.exec(location.search + location.hash);
    PK_I18N.setLang(q ? q[1] : PK_I18N.initial());
    var lb = document.querySelectorAll('[data-lang]');
    for (var i = 0; i < lb.length; i++) {
      lb[i].addEventListener('click', function (ev) {
        PK_I18N.setLang(ev.currentTarget.getAttribute('data-lang'));
        PK_FILES.render();
        PK_DANCERS.relabel();
      });
    }
    $('file-input').addEventListener('change', function (ev) {
      var input = ev.target;
      PK_FILES.addList(input.files).then(function () { input.value = ''; });
    });
    var drop = $('drop');
    ['dragenter', 'dragover'].forEach(function (t) {
      document.addEventListener(t, function (ev) { ev.preventDefault(); drop.classList.add('over'); });
    });
    ['dragleave', 'drop'].forEach(function (t) {
      document.addEventListener(t, function (ev) { ev.preventDefault(); if (t === 'drop' || ev.target === document.documentElement) drop.classList.remove('over'); });
    });
    document.addEventListener('drop', function (ev) {
      if (ev.dataTransfer && ev.dataTransfer.files && ev.dataTransfer.files.length) PK_FILES.addList(ev.dataTransfer.files);
    });
    var radios = document.querySelectorAll('input[name=op]');
    for (var j = 0; j < radios.length; j++) radios[j].addEventListener('change', function (ev) { selectOp(ev.target.value); });
    var forms = document.querySelectorAll('form.op');
    for (var k = 0; k < forms.length; k++) {
      forms[k].addEventListener('submit', function (ev) {
        ev.preventDefault();
        var op = ev.currentTarget.getAttribute('data-op');
        if (op === 'see') PK_SEE.draw(); else PK_STEPS.ops[op]();
      });
    }
    var sels = document.querySelectorAll('select[data-kinds]');
    for (var m = 0; m < sels.length; m++) {
      sels[m].addEventListener('change', function (ev) { ev.target.setAttribute('data-user', '1'); PK_FILES.defaults(); PK_SEE.range(); });
    }
    $('see-frame').addEventListener('input', function () { PK_SEE.stopPlay(); PK_SEE.syncFrame('see-frame', 'see-frame-n'); });
    $('see-frame-n').addEventListener('change', function () { PK_SEE.stopPlay(); PK_SEE.syncFrame('see-frame-n', 'see-frame'); });
    $('see-play').addEventListener('click', PK_SEE.togglePlay);
    $('see-view').addEventListener('change', function () { if ($('see-in').value && $('see-model').value) PK_SEE.draw(); });
    $('busy-cancel').addEventListener('click', function () { E.cancel(); });
    E.onReady(function (v) { $('engine-version').textContent = v ? 'posekit ' + v : ''; $('engine-error').hidden = true; });
    E.onFail(function (e) {
      var b = $('engine-error');
      b.textContent = T('run.engineError', [e && e.message || String(e)]);
      b.hidden = false;
    });
    E.start();
    PK_DANCERS.init();
    PK_FILES.refresh();
    PK_FILES.render();
  }

  window.PK_APP = { files: PK_FILES.list, selectOp: selectOp };
  init();
})();

