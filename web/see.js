/* posekit page: See — the engine's `draw` picture of a pose or of a
 * motion's frame, a frame slider that redraws as it moves, and play.
 * PK_SEE. */
(function () {
  'use strict';
  var T = PK_I18N.t;
  var U = PK_UI, $ = U.$, el = U.el, base = U.base, safe = U.safe, arg = U.arg;
  var clearResult = U.clearResult, section = U.section, showCommand = U.showCommand, showMessages = U.showMessages;
  var showPicture = U.showPicture, fail = U.fail, statusLine = U.statusLine, need = U.need;
  var find = PK_FILES.find;
  function isMotion(name) { return PK_STEPS.isMotion(name); }

  /* ---------- see: the picture, the frame slider ---------- */

  function seeRange() {
    var f = find($('see-in').value), v = find($('see-vs').value);
    var last = 0, motion = false;
    [f, v].forEach(function (x) {
      if (x && x.info && x.info.frames && (x.kind === 'motion')) { motion = true; last = Math.max(last, x.info.frames[1]); }
    });
    var s = $('see-frame'), n = $('see-frame-n');
    s.max = String(last);
    n.max = String(last);
    s.disabled = n.disabled = $('see-play').disabled = !motion;
    if (+s.value > last) { s.value = String(last); n.value = String(last); }
  }

  var drawing = false, drawAgain = false;

  function seeArgv() {
    var inName = $('see-in').value, model = $('see-model').value, vs = $('see-vs').value, vsModel = $('see-vs-model').value;
    var frame = String(+$('see-frame').value || 0);
    var motion = isMotion(inName) || (vs && isMotion(vs));
    var view = $('see-view').value;
    var out = safe(base(inName) + (motion ? '_frame' + frame : '') + '_on_' + base(model) + (view !== 'front' ? '_' + view : '') + '.svg');
    var argv = ['posekit', 'draw', arg(inName), '--model', arg(model)];
    if (motion) argv.push('--frame', frame);
    var names = [inName, model];
    if (vs) {
      argv.push('--vs', arg(vs));
      names.push(vs);
      if (vsModel) { argv.push('--vs-model', arg(vsModel)); names.push(vsModel); }
    }
    if ($('see-view').value !== 'front') argv.push('--view', $('see-view').value);
    argv.push('-o', arg(out));
    return { argv: argv, names: names, out: out };
  }

  /* the slider redraws as it moves: one drawing at a time, the latest frame next */
  function draw() {
    if (!$('see-in').value || !$('see-model').value) { need(['see-in', 'see-model']); return; }
    if (drawing || PK_STEPS.running()) { drawAgain = true; return; }
    drawing = true;
    var a = seeArgv();
    var done = function () {
      drawing = false;
      if (drawAgain) { drawAgain = false; draw(); } else if (playing) setTimeout(playNext, 0);
    };
    PK_STEPS.runOne(a.argv, a.names).then(function (r) {
      var box = $('result');
      var block = box.querySelector('.block.see');
      if (!block) { clearResult(); block = section('op.see'); block.classList.add('see'); }
      U.freeUrls();
      block.textContent = '';
      if (r.status !== 0) stopPlay();
      block.appendChild(el('h3', { i18n: 'op.see' }));
      showCommand(block, a.argv);
      statusLine(block, r, a.argv);
      showMessages(block, r);
      (r.files || []).forEach(function (o) {
        if (o.name === a.out) {
          showPicture(block, o);
          var f = { name: o.name, data: o.data };
          var p = el('p');
          p.appendChild(U.downloadLink(f));
          U.keepUrl(f.url);
          block.appendChild(p);
        }
      });
    }, function (err) {
      clearResult();
      fail(section('op.see'), err);
    }).then(done, done);
  }

  /* play: the frames at 30 a second, as many as the drawing keeps up with */
  var playing = false, playT0 = 0, playF0 = 0;

  function setPlay(on) {
    playing = on;
    var b = $('see-play');
    b.setAttribute('aria-pressed', String(on));
    b.firstChild.setAttribute('data-i18n', on ? 'see.stop' : 'see.play');
    b.firstChild.textContent = T(on ? 'see.stop' : 'see.play');
  }
  function stopPlay() { if (playing) setPlay(false); }

  function playNext() {
    if (!playing) return;
    var s = $('see-frame'), last = +s.max;
    var f = Math.min(last, playF0 + Math.round((performance.now() - playT0) * 30 / 1000));
    if (f === +s.value && f < last) { setTimeout(playNext, 15); return; }
    s.value = String(f);
    $('see-frame-n').value = String(f);
    if (f >= last) setPlay(false);
    draw();
  }

  function togglePlay() {
    if (playing) { setPlay(false); return; }
    var s = $('see-frame');
    if (s.disabled || !$('see-in').value || !$('see-model').value) return;
    if (+s.value >= +s.max) s.value = '0';
    playF0 = +s.value;
    playT0 = performance.now();
    setPlay(true);
    playNext();
  }

  function syncFrame(from, to) {
    $(to).value = $(from).value;
    draw();
  }

  /* a step has ended: a drawing asked for meanwhile is made now */
  function afterStep() {
    if (drawAgain) { drawAgain = false; draw(); }
  }

  window.PK_SEE = {
    range: seeRange, draw: draw, afterStep: afterStep, stopPlay: stopPlay, togglePlay: togglePlay,
    syncFrame: syncFrame
  };
})();
