/* posekit page: the steps — each builds the posekit command line from its
 * fields, runs it in the engine's worker (engine.js) on copies of the
 * files, shows the report and keeps what the command wrote.  PK_STEPS. */
(function () {
  'use strict';
  var T = PK_I18N.t;
  var E = PK_ENGINE;
  var U = PK_UI, $ = U.$, el = U.el, base = U.base, safe = U.safe, arg = U.arg, fmt = U.fmt;
  var clearResult = U.clearResult, section = U.section, showCommand = U.showCommand, showMessages = U.showMessages;
  var table = U.table, showPicture = U.showPicture, outputsBlock = U.outputsBlock, fail = U.fail;
  var statusLine = U.statusLine, need = U.need;
  var F = PK_FILES, find = F.find, addFile = F.add;

  /* ---------- running ---------- */

  var running = false;
  var stepOf = ''; /* '(2/3) ': which command of a step's several the bar is of */

  function setBusy(on, what) {
    running = on;
    $('busy').hidden = !on;
    var gos = document.querySelectorAll('button.go');
    for (var i = 0; i < gos.length; i++) gos[i].disabled = on;
    if (on) {
      stepOf = '';
      $('busy-progress').removeAttribute('value');
      $('busy-what').textContent = what || '';
    }
  }

  function progress(done, what) {
    if (typeof done === 'number') $('busy-progress').value = done;
    if (what) $('busy-what').textContent = stepOf + PK_I18N.progress(what);
  }

  /* files: the names of the inputs, sent to the worker's fresh folder */
  function runOne(argv, names) {
    var sent = [];
    names.forEach(function (n) { var f = find(n); if (f && !sent.some(function (s) { return s.name === n; })) sent.push({ name: f.name, data: f.data }); });
    return E.run(argv, sent, progress);
  }

  /* a run's written files become files of the page (to download, to see,
   * to use in the next step) */
  function keepOutputs(r) {
    return Promise.all((r.files || []).map(function (o) {
      if (/\.(vmd|vpd|ya?ml)$/i.test(o.name)) return addFile(o.name, o.data, true);
      return { name: o.name, data: o.data, made: true, only: true }; /* pictures, reports: download only */
    }));
  }

  /* one operation: steps is a list of {argv, names, render(r, block)}; they
   * run in order, each shown as it ends; a failed one stops the rest */
  function perform(titleKey, steps) {
    if (running) return Promise.resolve();
    clearResult();
    var block = section(titleKey);
    setBusy(true, T('run.working', [T(titleKey)]));
    var i = 0;
    function next() {
      if (i >= steps.length) return Promise.resolve();
      var s = steps[i++];
      if (s.title) block.appendChild(el('h4', { i18n: s.title }));
      if (steps.length > 1) { /* a new command: its own bar, from nothing */
        stepOf = '(' + i + '/' + steps.length + ') ';
        $('busy-progress').removeAttribute('value');
        $('busy-what').textContent = T('run.working', [T(titleKey)]) + ' (' + i + '/' + steps.length + ')';
      }
      showCommand(block, s.argv);
      return runOne(s.argv, s.names).then(function (r) {
        var ok = statusLine(block, r, s.argv);
        showMessages(block, r);
        return keepOutputs(r).then(function (outs) {
          if (s.render) s.render(r, block, outs);
          outputsBlock(block, outs);
          if (ok) return next();
        });
      });
    }
    return next().catch(function (err) { fail(block, err); }).then(function () {
      setBusy(false);
      var h = block.querySelector('h3');
      if (h) { h.setAttribute('tabindex', '-1'); h.focus(); }
      PK_SEE.afterStep();
    });
  }

  function frameSpec(text) {
    var v = (text || '').trim();
    if (v === '' || v === 'all') return ['--frames', 'all'];
    if (/^\d+$/.test(v)) return ['--frame', v];
    return ['--frames', v.replace(/\s+/g, '')];
  }

  function isMotion(name) { var f = find(name); return f && (f.kind === 'motion' || f.kind === 'camera'); }
  function outExt(name) { var f = find(name); return f && f.kind === 'pose' ? '.vpd' : '.vmd'; }

  function seeButton(block, after, before, model, vsModel, label) {
    var b = el('button', { type: 'button', cls: 'see-ba' });
    b.appendChild(el('span', label ? { i18n: label[0], args: label[1] } : { i18n: 'run.seeBeforeAfter' }));
    b.addEventListener('click', function () {
      PK_APP.selectOp('see');
      $('see-in').value = after;
      $('see-vs').value = before;
      if (model && find(model)) $('see-model').value = model;
      $('see-vs-model').value = vsModel && find(vsModel) ? vsModel : '';
      $('see-in').setAttribute('data-user', '1');
      $('see-vs').setAttribute('data-user', '1');
      PK_SEE.range();
      PK_SEE.draw();
    });
    block.appendChild(b);
  }

  /* ---------- the operations ---------- */

  var ops = {};

  ops.check = function () {
    if (!need(['check-in'])) return;
    var inName = $('check-in').value, model = $('check-model').value;
    var argv = ['posekit', 'check', arg(inName)];
    var names = [inName];
    var rulesName = null;
    if (model) {
      argv.push('--model', arg(model));
      names.push(model);
    }
    argv.push('--json');
    if (model && $('check-suggest').checked) {
      rulesName = safe(base(inName) + '_for_' + base(model) + '_rules.yaml');
      argv.push('--suggest-rules', arg(rulesName));
    }
    perform('op.check', [{ argv: argv, names: names, render: function (r, block, outs) {
      if (r.status === 2) return;
      var d;
      try { d = JSON.parse(r.stdout); } catch (e) { block.appendChild(el('pre', { cls: 'msg', text: r.stdout })); return; }
      if (!model) {
        block.appendChild(table(['f.model', 'check.bodyBones', 'check.overlap'], (d.bodies || []).map(function (b) {
          return [b.name + (b.name === d.best ? ' ✓' : ''), b.bones_it_has + ' / ' + b.bones_keyed, fmt(b.overlap, 3)];
        }), 'bodies'));
        return;
      }
      var bones = d.bones || [], morphs = d.morphs || [];
      var bm = morphs.filter(function (m) { return m.status === 'missing'; }).length;
      block.appendChild(el('p', { cls: 'summary', text: T('check.summary', [bones.length, d.missing, d.missing_moving, morphs.length, bm]) }));
      var probs = bones.map(function (b) { b.k = 'bone'; return b; }).concat(morphs.map(function (m) { m.k = 'morph'; return m; }))
        .filter(function (b) { return b.status !== 'found' || b.physics && b.moving || b.move_unusable || b.rotate_unusable; })
        .sort(function (x, y) { return (y.status === 'missing' && y.moving > 0) - (x.status === 'missing' && x.moving > 0); });
      if (!probs.length) block.appendChild(el('p', { cls: 'summary ok', i18n: 'check.fits' }));
      else {
        block.appendChild(el('h4', { i18n: 'check.problems' }));
        block.appendChild(table(['check.kind', 'check.name', 'check.keys', 'check.moving', 'check.status', 'check.modelName'], probs.map(function (b) {
          var st = [];
          if (b.status !== 'found') st.push(T('check.st.' + b.status));
          if (b.physics) st.push(T('check.st.physics'));
          if (b.move_unusable || b.rotate_unusable) st.push(T('check.st.unusable', [(b.move_unusable || 0) + (b.rotate_unusable || 0)]));
          if (b.fold_into && b.fold_into.length) st.push(T('check.st.fold', [b.fold_into.join(', ')]));
          var nm = b.model_name || (b.near_miss ? T('check.near', [b.near_miss.name]) + (b.near_miss.why ? ' (' + b.near_miss.why + ')' : '') : '');
          return [T(b.k === 'morph' ? 'check.morph' : 'check.bone'), b.name, b.keys, b.moving, st.join('; '), nm];
        }), 'check'));
      }
      outs.forEach(function (o) {
        if (o.name === rulesName) {
          block.appendChild(el('h4', { i18n: 'check.rulesFile' }));
          block.appendChild(el('pre', { cls: 'yaml', text: new TextDecoder('utf-8').decode(new Uint8Array(o.data)) }));
        }
      });
    } }]);
  };

  function builtin(name) { return name.charAt(0) === '@'; }
  function fromArg(name) { return builtin(name) ? name : arg(name); }
  function readJson(outs, name) {
    var rep = null;
    outs.forEach(function (o) { if (o.name === name) { try { rep = JSON.parse(new TextDecoder('utf-8').decode(new Uint8Array(o.data))); } catch (e) { rep = null; } } });
    return rep;
  }

  /* several dancers: `retarget IN1 --from A1 --to B1 -o OUT1 --and IN2 ...
   * [--scale S|own]`, one group report; an output named as an input or an
   * earlier dancer's output gets _dancerN */
  function sizeTogether(list) {
    var scale = $('size-scale').value;
    if (scale === 'set' && !need(['size-scale-n'])) return;
    var fingers = $('size-fingers').checked;
    var taken = {}, names = [], argv = ['posekit', 'retarget'], bases = [];
    list.forEach(function (d) { [d.dance, d.from, d.to].forEach(function (n) { taken[n] = true; }); });
    list.forEach(function (d, i) {
      var out = safe(base(d.dance) + '_sized_to_' + base(d.to.replace(/^@/, '')));
      out = taken[out + '.vmd'] ? out + '_dancer' + (i + 1) + '.vmd' : out + '.vmd';
      taken[out] = true;
      d.out = out;
      if (i) argv.push('--and');
      argv.push(arg(d.dance), '--from', fromArg(d.from), '--to', arg(d.to), '-o', arg(out));
      if (fingers) argv.push('--fingers');
      names.push(d.dance, d.to);
      if (!builtin(d.from)) names.push(d.from);
      if (bases.indexOf(base(d.dance)) < 0) bases.push(base(d.dance));
    });
    var report = safe((bases.length <= 3 ? bases.join('_and_') : bases[0] + '_and_' + (bases.length - 1) + '_more') + '_sized_report.json');
    argv.push('--report', arg(report));
    if (scale === 'own') argv.push('--scale', 'own');
    else if (scale === 'set') argv.push('--scale', $('size-scale-n').value.trim());
    perform('op.size', [{ argv: argv, names: names, render: function (r, block, outs) {
      if (r.status === 2) return;
      var rep = readJson(outs, report);
      if (rep) dancersReport(block, rep, list);
      list.forEach(function (d, i) {
        seeButton(block, d.out, d.dance, builtin(d.to) ? null : d.to, builtin(d.from) ? null : d.from, ['size.seeDancer', [i + 1]]);
      });
    } }]);
  }

  /* the group's report: each dancer's legs and output, the scale, the
   * spacing error (goal: 2% of the mean leg), the contacts between dancers */
  function dancersReport(block, rep, list) {
    var ds = rep.dancers || [];
    block.appendChild(el('h4', { i18n: 'size.dancers' }));
    block.appendChild(table(['dancers.n', 'dancers.dance', 'dancers.from', 'dancers.to', 'dancers.leg', 'dancers.out'], list.map(function (d, i) {
      var leg = ds[i] && ds[i].leg ? fmt(ds[i].leg.from, 2) + ' → ' + fmt(ds[i].leg.to, 2) : '';
      var from = ds[i] && ds[i].picked ? d.from + ' (' + ds[i].picked + ')' : d.from; /* @auto: the body it picked */
      return [String(i + 1), d.dance, from, d.to, leg, d.out];
    }), 'dancers'));
    var ul = el('ul', { cls: 'facts' });
    var sc = rep.scale;
    /* a line in the page's language, its numbers kept when the language changes */
    function fact(cls, key, args) {
      var li = el('li', { cls: cls });
      li.appendChild(el('span', { i18n: key, args: args }));
      ul.appendChild(li);
      return li;
    }
    if (sc) fact('scale', 'dancers.scale.' + (sc.from === 'own' ? 'own' : sc.from === 'given' ? 'given' : 'mean'),
      [fmt(sc.xz, 4), fmt(sc.legs && sc.legs.min, 4), fmt(sc.legs && sc.legs.max, 4)]);
    var sp = rep.spacing;
    if (sp && sp.pairs) {
      var li = fact('spacing', 'dancers.spacing', [fmt(sp.max * 100, 2), fmt(sp.mean * 100, 2), fmt(sp.leg, 3), sp.frames[0], sp.frames[1], sp.pairs]);
      var good = sp.max <= 0.02;
      li.appendChild(document.createTextNode(' '));
      li.appendChild(el('span', { cls: 'goal ' + (good ? 'ok' : 'bad'), i18n: good ? 'dancers.goal.ok' : 'dancers.goal.over' }));
      if (sp.worst) fact('worst', 'dancers.worst', [sp.worst.dancers[0], sp.worst.dancers[1], sp.worst.frame, fmt(sp.worst.distance, 3), fmt(sp.worst.wanted, 3)]);
    }
    var pa = rep.partners;
    if (pa) {
      var cs = pa.contacts || [];
      if (!cs.length) fact('partners', 'dancers.noPartners');
      else {
        var pl = fact('partners', 'dancers.partners', [cs.length, fmt(pa.before.mean * 100, 1), fmt(pa.after.mean * 100, 1),
          fmt(pa.before.p95 * 100, 1), fmt(pa.after.p95 * 100, 1)]);
        if (pa.out_of_reach) {
          pl.appendChild(document.createTextNode('; '));
          pl.appendChild(el('span', { i18n: 'dancers.outOfReach', args: [pa.out_of_reach] }));
        }
      }
    }
    block.appendChild(ul);
    if (pa && pa.contacts && pa.contacts.length) {
      block.appendChild(table(['partners.dancer', 'partners.hand', 'partners.partner', 'partners.with', 'partners.frames', 'partners.before', 'partners.after'],
        pa.contacts.map(function (c) {
          var part = PK_I18N.strings['part.' + c['with']] ? { i18n: 'part.' + c['with'] } : c['with']; /* the engine's word where the page has none */
          return [String(c.dancer), { i18n: 'hand.' + c.hand }, String(c.partner), part, c.frames[0] + '–' + c.frames[1],
            fmt(c.before.mean * 100, 1), fmt(c.after.mean * 100, 1)];
        }), 'partners'));
    }
  }

  ops.size = function () {
    var list = PK_DANCERS.list();
    if (!need(PK_DANCERS.required())) return;
    if (list.length > 1) return sizeTogether(list);
    var dance = $('size-in').value, from = $('size-from').value, to = $('size-to').value, cam = $('size-camera').value;
    var toBase = base(to.replace(/^@/, ''));
    var out = safe(base(dance) + '_sized_to_' + toBase + '.vmd');
    var report = safe(base(dance) + '_sized_to_' + toBase + '_report.json');
    var names = [dance, to];
    if (from.charAt(0) !== '@') names.push(from);
    var argv = ['posekit', 'retarget', arg(dance), '--from', from.charAt(0) === '@' ? from : arg(from), '--to', arg(to), '-o', arg(out), '--report', arg(report)];
    if ($('size-fingers').checked) argv.push('--fingers');
    var steps = [{ argv: argv, names: names, title: cam ? 'size.dance' : null, render: function (r, block, outs) {
      if (r.status === 2) return;
      var rep = readJson(outs, report);
      if (rep) {
        var ul = el('ul', { cls: 'facts' });
        if (rep.arm) ul.appendChild(el('li', { text: T('size.arm', [fmt(rep.arm.from, 2), fmt(rep.arm.to, 2)]) }));
        if (rep.leg) ul.appendChild(el('li', { text: T('size.leg', [fmt(rep.leg.from, 2), fmt(rep.leg.to, 2)]) }));
        var c = rep.steps && rep.steps.contacts;
        if (c && c.found) ul.appendChild(el('li', { text: T('size.contacts', [c.found, fmt(c.gap_before * 100, 1), fmt(c.gap_after * 100, 1)]) }));
        if (ul.childNodes.length) block.appendChild(ul);
      }
      seeButton(block, out, dance, to.charAt(0) === '@' ? null : to, from.charAt(0) === '@' ? null : from);
    } }];
    if (cam) {
      var camOut = safe(base(cam) + '_sized_to_' + toBase + '.vmd');
      var cargv = ['posekit', 'retarget', arg(cam), '--from', from.charAt(0) === '@' ? from : arg(from), '--to', arg(to), '--motion', arg(dance), '-o', arg(camOut)];
      steps.push({ argv: cargv, names: names.concat([cam]), render: null, title: 'size.camera' });
    }
    perform('op.size', steps);
  };

  ops.overlay = function () {
    if (!need(['overlay-in', 'overlay-pose'])) return;
    var inName = $('overlay-in').value, pose = $('overlay-pose').value;
    var out = safe(base(inName) + '_with_' + base(pose) + outExt(inName));
    var argv = ['posekit', 'overlay', arg(inName), '--pose', arg(pose), '--bones', $('overlay-bones').value.trim()];
    if (isMotion(inName)) {
      var fr = ($('overlay-frames').value || '').trim();
      if (fr) argv.push('--frames', fr.replace(/\s+/g, ''));
      var fade = $('overlay-fade').value;
      if (fade && +fade > 0) argv.push('--fade', String(+fade));
    }
    if ($('overlay-mode').value === 'add') argv.push('--mode', 'add');
    argv.push('-o', arg(out));
    perform('op.overlay', [{ argv: argv, names: [inName, pose], render: function (r, block) {
      if (r.status !== 2) seeButton(block, out, inName, $('see-model').value, null);
    } }]);
  };

  ops.diff = function () {
    if (!need(['diff-a', 'diff-b'])) return;
    var a = $('diff-a').value, b = $('diff-b').value, model = $('diff-model').value;
    var svg = safe(base(a) + '_vs_' + base(b) + '_diff.svg');
    var argv = ['posekit', 'diff', arg(a), arg(b)];
    if (isMotion(a) || isMotion(b)) argv = argv.concat(frameSpec($('diff-frames').value));
    if (model) argv.push('--model', arg(model));
    if ($('diff-all').checked) argv.push('--all');
    argv.push('--json', '--svg', arg(svg));
    var names = [a, b];
    if (model) names.push(model);
    perform('op.diff', [{ argv: argv, names: names, render: function (r, block, outs) {
      if (r.status === 2) return;
      var d;
      try { d = JSON.parse(r.stdout); } catch (e) { block.appendChild(el('pre', { cls: 'msg', text: r.stdout })); return; }
      var s = d.summary || {};
      block.appendChild(el('p', { cls: 'summary', text: s.differ === false ? T('diff.same') :
        T('diff.summary', [s.bones, s.bones_differ, fmt(s.max_angle_deg, 3), s.morphs, s.morphs_differ]) }));
      var range = !!d.frames;
      var bones = (d.bones || []).filter(function (x) { return x.differs || $('diff-all').checked; });
      if (bones.length) {
        var head = ['diff.bone', 'diff.deg', 'diff.pos'];
        if (range) head = head.concat(['diff.at', 'diff.mean']);
        head.push('diff.onlyIn');
        block.appendChild(table(head, bones.map(function (x) {
          var row = [x.name, fmt(x.angle_deg, 3), fmt(x.pos_delta, 4)];
          if (range) row = row.concat([x.angle_frame, fmt(x.angle_mean, 3)]);
          row.push(x.only_in ? x.only_in.toUpperCase() : '');
          return row;
        }), 'diff'));
      }
      var morphs = (d.morphs || []).filter(function (x) { return x.differs || $('diff-all').checked; });
      if (morphs.length) {
        block.appendChild(table(['diff.morph', 'diff.delta', 'diff.onlyIn'], morphs.map(function (x) {
          return [x.name, fmt(x.delta, 4), x.only_in ? x.only_in.toUpperCase() : ''];
        }), 'diff-morphs'));
      }
      outs.forEach(function (o) { if (o.name === svg) showPicture(block, o); });
    } }]);
  };

  function simple(op, inId, outName, extra, more) {
    if (!need([inId].concat(more || []))) return;
    var inName = $(inId).value;
    var out = outName(inName);
    var argv = ['posekit', op, arg(inName)].concat(extra.argv).concat(['-o', arg(out)]);
    perform('op.' + op, [{ argv: argv, names: [inName].concat(extra.names || []), render: function (r, block) {
      if (r.status !== 2 && /\.(vmd|vpd)$/.test(out) && find(out) && find(out).kind !== 'camera') seeButton(block, out, inName, $('see-model').value, null);
    } }]);
  }

  ops.reduce = function () {
    var a = [];
    if ($('reduce-deg').value) a.push('--max-deg', $('reduce-deg').value);
    if ($('reduce-pos').value) a.push('--max-pos', $('reduce-pos').value);
    var inName = $('reduce-in').value;
    if (find(inName) && find(inName).kind === 'camera') a.push('--camera');
    simple('reduce', 'reduce-in', function (n) { return safe(base(n) + '_reduced.vmd'); }, { argv: a });
  };

  ops.bake = function () {
    var a = [];
    if ($('bake-step').value && +$('bake-step').value > 1) a.push('--step', String(+$('bake-step').value));
    var inName = $('bake-in').value;
    if (find(inName) && find(inName).kind === 'camera') a.push('--camera');
    simple('bake', 'bake-in', function (n) { return safe(base(n) + '_baked.vmd'); }, { argv: a });
  };

  ops.convert = function () {
    if (!need(['convert-in'])) return;
    var inName = $('convert-in').value, n = String(Math.max(0, parseInt($('convert-frame').value, 10) || 0));
    var pose = !isMotion(inName);
    var out = pose ? safe(base(inName) + '.vmd') : safe(base(inName) + '_frame' + n + '.vpd');
    var argv = ['posekit', 'convert', arg(inName), '-o', arg(out)];
    if (!pose || n !== '0') argv.push('--frame', n);
    perform('op.convert', [{ argv: argv, names: [inName], render: null }]);
  };

  ops.mirror = function () {
    var rules = $('mirror-rules').value;
    simple('mirror', 'mirror-in', function (n) { return safe(base(n) + '_mirrored' + outExt(n)); },
      { argv: rules ? ['--rules', arg(rules)] : [], names: rules ? [rules] : [] });
  };

  ops.rename = function () {
    var rules = $('rename-rules').value;
    var rev = $('rename-reverse').checked;
    simple('rename', 'rename-in', function (n) { return safe(base(n) + '_' + base(rules) + (rev ? '_reversed' : '') + outExt(n)); },
      { argv: ['--rules', arg(rules)].concat(rev ? ['--reverse'] : []), names: [rules] }, ['rename-rules']);
  };

  /* a job: every file of the page goes into the folder, the job finds
   * its inputs by name; what it writes (in folders too) comes back */
  ops.job = function () {
    if (!need(['job-in'])) return;
    var job = $('job-in').value;
    /* run's report is on standard output: each step's line (a diff that
     * differs, a check's missing names) and one line per file written */
    perform('op.job', [{ argv: ['posekit', 'run', arg(job)], names: F.list().map(function (f) { return f.name; }), render: function (r, block) {
      var report = (r.stdout || '').trim();
      if (report) block.appendChild(el('pre', { cls: 'msg report', text: report }));
      /* a path with folders (dances/x.vmd, ダンス\x.vmd: the job as written
       * for a disk) finds nothing here, where every file is in one folder */
      if (r.status === 2 && /\([^()]*[\/\\][^()]*\): cannot open/.test(r.stderr || ''))
        block.appendChild(el('p', { cls: 'hint job-flat', i18n: 'job.flat' }));
    } }]);
  };

  window.PK_STEPS = {
    ops: ops, runOne: runOne, running: function () { return running; }, isMotion: isMotion
  };
})();
