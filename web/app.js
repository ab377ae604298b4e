/* posekit page: the files, the steps and the results.
 * Every operation is the posekit command line run by the engine's worker
 * (engine.js) on copies of the files the page holds in memory; the page
 * builds the argv, shows the command's report and offers the files it wrote
 * for download.  Nothing leaves the page. */
(function () {
  'use strict';
  var T = PK_I18N.t;
  var E = PK_ENGINE;
  var files = []; /* {name, data, kind, info, error, warnings, made, url} */
  var lastResultUrls = [];

  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (k === 'text') e.textContent = attrs[k];
        else if (k === 'cls') e.className = attrs[k];
        else if (k === 'i18n') { e.setAttribute('data-i18n', attrs[k]); e.textContent = T(attrs[k]); }
        else e.setAttribute(k, attrs[k]);
      });
    }
    (kids || []).forEach(function (c) { if (c != null) e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return e;
  }
  function ext(name) { var m = /\.([^.]+)$/.exec(name); return m ? m[1].toLowerCase() : ''; }
  function base(name) { return name.replace(/\.[^.]+$/, ''); }
  function safe(s) { return s.replace(/[\/\\:*?"<>|\x00-\x1f]/g, '_'); }
  function find(name) { for (var i = 0; i < files.length; i++) if (files[i].name === name) return files[i]; return null; }
  /* an argument naming a file (an input or an output): a name starting with
   * "-" would read as an option */
  function arg(name) { return name.charAt(0) === '-' ? './' + name : name; }
  function fmt(x, d) { return (typeof x === 'number' && isFinite(x)) ? x.toFixed(d) : String(x); }
  function quote(a) { return /^[A-Za-z0-9_@%+=:,.\/-]+$/.test(a) ? a : "'" + a.replace(/'/g, "'\\''") + "'"; }

  /* ---------- files ---------- */

  function classifyYaml(text) {
    if (/^\s*posekit_body\s*:/m.test(text)) return 'body';
    if (/^\s*steps\s*:/m.test(text)) return 'job';
    return 'rules';
  }

  function kindOfInfo(info) {
    if (info.format === 'pmx' || info.format === 'pmd') return 'model';
    if (info.format === 'vpd') return 'pose';
    if (info.format === 'vmd') {
      var c = info.counts || {};
      if ((c.cameras > 0 || c.lights > 0) && !c.bones && !c.morphs) return 'camera';
      return 'motion';
    }
    return 'other';
  }

  function describe(f) {
    var i = f.info;
    if (f.kind === 'bad') return '';
    if (f.kind === 'rules' || f.kind === 'job' || f.kind === 'body') {
      var keys = [];
      var re = /^([A-Za-z_]+)\s*:/gm, m;
      while ((m = re.exec(f.text || '')) && keys.length < 8) if (keys.indexOf(m[1]) < 0) keys.push(m[1]);
      return keys.join(', ');
    }
    if (!i) return '';
    var parts = [];
    var c = i.counts || {};
    if (f.kind === 'model') {
      parts.push(T('sum.modelName', [i.model || '']));
      parts.push(T('sum.bones', [c.bones]));
      parts.push(T('sum.morphs', [c.morphs]));
      if (i.format) parts.push(i.format.toUpperCase() + (i.version ? ' ' + i.version : ''));
    } else if (f.kind === 'pose') {
      if (i.model) parts.push(T('sum.forModel', [i.model]));
      parts.push(T('sum.bones', [c.bones]));
      if (c.morphs) parts.push(T('sum.morphs', [c.morphs]));
    } else {
      /* a camera motion's model name is MMD's "カメラ・照明": no model */
      if (i.model && f.kind !== 'camera') parts.push(T('sum.forModel', [i.model]));
      if (i.frames) parts.push(T('sum.frames', [i.frames[0], i.frames[1]]));
      if (c.bones) parts.push(T('sum.boneKeys', [(i.bones || []).length, c.bones]));
      if (c.morphs) parts.push(T('sum.morphKeys', [(i.morphs || []).length, c.morphs]));
      if (c.cameras) parts.push(T('sum.cameraKeys', [c.cameras]));
    }
    var nw = Array.isArray(i.warnings) ? i.warnings.length : +i.warnings || 0;
    if (nw) parts.push(T('sum.warnings', [nw]));
    return parts.join(' · ');
  }

  function inspect(f) {
    var e = ext(f.name);
    if (e === 'yaml' || e === 'yml') {
      f.text = new TextDecoder('utf-8').decode(new Uint8Array(f.data));
      f.kind = classifyYaml(f.text);
      return Promise.resolve(f);
    }
    return E.run(['posekit', 'info', '--json', arg(f.name)], [{ name: f.name, data: f.data }]).then(function (r) {
      if (r.status !== 0) {
        f.kind = 'bad';
        f.error = r.stderr.trim() || ('exit status ' + r.status);
        return f;
      }
      try { f.info = JSON.parse(r.stdout); } catch (err) { f.kind = 'bad'; f.error = String(err); return f; }
      f.kind = kindOfInfo(f.info);
      f.warnings = r.stderr.trim();
      return f;
    }, function (err) {
      f.kind = 'bad';
      f.error = T('run.engineError', [err.message || String(err)]);
      return f;
    });
  }

  function addFile(name, data, made) {
    var old = find(name);
    if (old) removeFile(old, true);
    var f = { name: name, data: data, kind: 'reading', made: !!made };
    files.push(f);
    renderFiles();
    return inspect(f).then(function () {
      renderFiles();
      refreshSelects();
      $('files-status').textContent = T('files.added', [f.name]) + ': ' + T('kind.' + f.kind);
      return f;
    });
  }

  function removeFile(f, quiet) {
    var i = files.indexOf(f);
    if (i >= 0) files.splice(i, 1);
    if (f.url) URL.revokeObjectURL(f.url);
    if (!quiet) { renderFiles(); refreshSelects(); }
  }

  function addFileList(list) {
    var arr = Array.prototype.slice.call(list || []);
    return Promise.all(arr.map(function (file) {
      return file.arrayBuffer().then(function (buf) { return addFile(file.name, buf, false); });
    }));
  }

  function downloadLink(f) {
    if (!f.url) f.url = URL.createObjectURL(new Blob([f.data], { type: 'application/octet-stream' }));
    var a = el('a', { href: f.url, download: f.name.replace(/\//g, '_'), cls: 'button small', 'data-file': f.name });
    a.appendChild(el('span', { i18n: 'files.download' }));
    a.appendChild(el('span', { cls: 'visually-hidden', text: ' ' + f.name }));
    return a;
  }

  function renderFiles() {
    var ul = $('file-list');
    ul.textContent = '';
    $('files-empty').hidden = files.length > 0;
    files.forEach(function (f) {
      var li = el('li', { cls: 'file kind-' + f.kind, 'data-name': f.name, 'data-kind': f.kind });
      var head = el('div', { cls: 'file-head' });
      head.appendChild(el('span', { cls: 'file-name', text: f.name }));
      var kind = f.kind === 'reading' ? 'files.reading' : 'kind.' + f.kind;
      head.appendChild(el('span', { cls: 'badge', i18n: kind }));
      if (f.made) head.appendChild(el('span', { cls: 'badge made', i18n: 'files.made' }));
      li.appendChild(head);
      var sum = describe(f);
      if (sum) li.appendChild(el('div', { cls: 'file-sum', text: sum }));
      if (f.error) li.appendChild(el('pre', { cls: 'msg error', role: 'alert', text: f.error }));
      if (f.warnings) li.appendChild(el('pre', { cls: 'msg warn', text: f.warnings }));
      var actions = el('div', { cls: 'file-actions' });
      if (f.made) actions.appendChild(downloadLink(f));
      var rm = el('button', { type: 'button', cls: 'small remove', 'aria-label': T('files.remove') + ': ' + f.name });
      rm.appendChild(el('span', { i18n: 'files.remove' }));
      rm.addEventListener('click', function () { removeFile(f); });
      actions.appendChild(rm);
      li.appendChild(actions);
      ul.appendChild(li);
    });
  }

  /* ---------- selects ---------- */

  var BUILTIN = [['@auto', 'builtin.auto'], ['@classic', 'builtin.classic'], ['@standard', 'builtin.standard']];

  function refreshSelects() {
    var sels = document.querySelectorAll('select[data-kinds]');
    for (var s = 0; s < sels.length; s++) fillSelect(sels[s]);
    defaults();
    seeRange();
  }

  function fillSelect(sel) {
    var kinds = sel.getAttribute('data-kinds').split(' ');
    var keep = sel.value;
    sel.textContent = '';
    var none = sel.getAttribute('data-none');
    if (none) sel.appendChild(el('option', { value: '', i18n: none }));
    files.forEach(function (f) {
      if (kinds.indexOf(f.kind) >= 0) sel.appendChild(el('option', { value: f.name, text: f.name }));
    });
    if (sel.hasAttribute('data-builtin')) {
      var g = el('optgroup', { label: T('builtin') });
      BUILTIN.forEach(function (b) { g.appendChild(el('option', { value: b[0], i18n: b[1] })); });
      sel.appendChild(g);
    }
    var has = Array.prototype.some.call(sel.options, function (o) { return o.value === keep; });
    if (has) sel.value = keep;
    else sel.removeAttribute('data-user');
  }

  /* a second choice different from the first, until the user picks */
  function differ(firstId, secondId) {
    var a = $(firstId), b = $(secondId);
    if (b.hasAttribute('data-user') || b.value !== a.value) return;
    for (var i = 0; i < b.options.length; i++) {
      if (b.options[i].value && b.options[i].value !== a.value && b.options[i].value.charAt(0) !== '@') { b.value = b.options[i].value; return; }
    }
  }

  function defaults() {
    var from = $('size-from');
    if (!from.hasAttribute('data-user')) {
      /* the model the dance names, if one was dropped, else a built-in body */
      var dance = find($('size-in').value);
      var want = dance && dance.info ? dance.info.model : null;
      var pick = '@auto';
      files.forEach(function (f) { if (f.kind === 'model' && f.info && want && f.info.model === want) pick = f.name; });
      from.value = pick;
    }
    differ('size-from', 'size-to');
    differ('diff-a', 'diff-b');
    differ('overlay-in', 'overlay-pose');
  }

  /* ---------- results ---------- */

  function clearResult() {
    lastResultUrls.forEach(function (u) { if (u) URL.revokeObjectURL(u); });
    lastResultUrls = [];
    $('result').textContent = '';
  }

  function section(titleKey) {
    var s = el('section', { cls: 'block' });
    if (titleKey) s.appendChild(el('h3', { i18n: titleKey }));
    $('result').appendChild(s);
    return s;
  }

  function showCommand(parent, argv) {
    var d = el('p', { cls: 'cmd' });
    d.appendChild(el('span', { cls: 'label', i18n: 'run.command' }));
    d.appendChild(document.createTextNode(' '));
    d.appendChild(el('code', { text: argv.map(quote).join(' ') }));
    parent.appendChild(d);
  }

  function showMessages(parent, r) {
    var text = (r.stderr || '').trim();
    if (!text) return;
    var pre = el('pre', { cls: 'msg ' + (r.status === 2 ? 'error' : 'info'), text: text });
    if (r.status === 2) pre.setAttribute('role', 'alert');
    parent.appendChild(pre);
  }

  function table(headKeys, rows, cls) {
    var t = el('table', { cls: cls || '' });
    var tr = el('tr');
    headKeys.forEach(function (k) { tr.appendChild(el('th', { scope: 'col', i18n: k })); });
    t.appendChild(el('thead', null, [tr]));
    var tb = el('tbody');
    rows.forEach(function (r) {
      var row = el('tr');
      r.forEach(function (c, i) { row.appendChild(el('td', { text: c == null ? '' : String(c), cls: typeof c === 'number' || i > 0 && /^-?[0-9.]+$/.test(String(c)) ? 'n' : '' })); });
      tb.appendChild(row);
    });
    t.appendChild(tb);
    var wrap = el('div', { cls: 'table-wrap' });
    wrap.appendChild(t);
    return wrap;
  }

  /* an SVG the engine drew, shown inline (bone names on hover) after taking out
   * anything that could run: scripts, foreign objects, event attributes, links */
  function svgNode(buf) {
    var text = new TextDecoder('utf-8').decode(new Uint8Array(buf));
    var doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    var root = doc.documentElement;
    if (!root || root.nodeName !== 'svg' || doc.getElementsByTagName('parsererror').length) return null;
    var bad = root.querySelectorAll('script, foreignObject, iframe, a, use');
    for (var i = 0; i < bad.length; i++) bad[i].parentNode.removeChild(bad[i]);
    var all = root.querySelectorAll('*');
    var clean = function (n) {
      for (var j = n.attributes.length - 1; j >= 0; j--) {
        var a = n.attributes[j].name;
        if (/^on/i.test(a) || /href$/i.test(a)) n.removeAttribute(a);
      }
    };
    clean(root);
    for (var k = 0; k < all.length; k++) clean(all[k]);
    return document.importNode(root, true);
  }

  function showPicture(parent, f) {
    var fig = el('figure', { cls: 'picture' });
    var node = svgNode(f.data);
    if (node) {
      node.setAttribute('role', 'img');
      node.setAttribute('aria-label', f.name);
      fig.appendChild(node);
    } else {
      var url = URL.createObjectURL(new Blob([f.data], { type: 'image/svg+xml' }));
      lastResultUrls.push(url);
      fig.appendChild(el('img', { src: url, alt: f.name }));
    }
    fig.appendChild(el('figcaption', { text: f.name }));
    parent.appendChild(fig);
  }

  function outputsBlock(parent, outs) {
    if (!outs.length) return;
    parent.appendChild(el('h4', { i18n: 'run.outputs' }));
    var ul = el('ul', { cls: 'outputs' });
    outs.forEach(function (f) {
      var li = el('li');
      li.appendChild(el('span', { cls: 'file-name', text: f.name }));
      li.appendChild(document.createTextNode(' (' + f.data.byteLength.toLocaleString() + ' bytes) '));
      li.appendChild(downloadLink(f));
      if (!find(f.name) || find(f.name) !== f) lastResultUrls.push(f.url);
      ul.appendChild(li);
    });
    parent.appendChild(ul);
  }

  /* ---------- running ---------- */

  var running = false;

  function setBusy(on, what) {
    running = on;
    $('busy').hidden = !on;
    var gos = document.querySelectorAll('button.go');
    for (var i = 0; i < gos.length; i++) gos[i].disabled = on;
    if (on) {
      $('busy-progress').removeAttribute('value');
      $('busy-what').textContent = what || '';
    }
  }

  function progress(done, what) {
    if (typeof done === 'number') $('busy-progress').value = done;
    if (what) $('busy-what').textContent = what;
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
      return { name: o.name, data: o.data, made: true }; /* pictures, reports: download only */
    })).then(function (outs) {
      return outs;
    });
  }

  function fail(parent, err) {
    var msg = err && err.message === 'cancelled' ? T('run.cancelled') : T('run.engineError', [err && err.message || String(err)]);
    parent.appendChild(el('p', { cls: 'status bad', role: 'alert', text: msg }));
  }

  /* exit status 1 is diff's "they differ" and check's "names missing" */
  function statusLine(parent, r, argv) {
    var bad = r.status === 2 || r.status > 2 || r.status < 0;
    var p = el('p', { cls: 'status ' + (bad ? 'bad' : 'ok'), 'data-status': String(r.status), role: bad ? 'alert' : 'status' });
    var differ = r.status === 1 && argv && (argv[1] === 'diff' || argv[1] === 'check');
    p.textContent = bad ? T('run.failed') : differ ? T('run.differ.' + argv[1]) : T('run.ok');
    parent.appendChild(p);
    return !bad;
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
      if (steps.length > 1) $('busy-what').textContent = T('run.working', [T(titleKey)]) + ' (' + i + '/' + steps.length + ')';
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
      if (drawAgain) { drawAgain = false; draw(); }
    });
  }

  function need(ids) {
    var missing = [];
    ids.forEach(function (id) {
      if (!$(id).value) {
        var lab = document.querySelector('label[for="' + id + '"]');
        missing.push(lab ? lab.textContent : id);
      }
    });
    if (!missing.length) return true;
    clearResult();
    section(null).appendChild(el('p', { cls: 'status bad', role: 'alert', text: T('need.files', [missing.join(', ')]) }));
    return false;
  }

  function frameSpec(text) {
    var v = (text || '').trim();
    if (v === '' || v === 'all') return ['--frames', 'all'];
    if (/^\d+$/.test(v)) return ['--frame', v];
    return ['--frames', v.replace(/\s+/g, '')];
  }

  function isMotion(name) { var f = find(name); return f && (f.kind === 'motion' || f.kind === 'camera'); }
  function outExt(name) { var f = find(name); return f && f.kind === 'pose' ? '.vpd' : '.vmd'; }

  function seeButton(block, after, before, model, vsModel) {
    var b = el('button', { type: 'button', cls: 'see-ba' });
    b.appendChild(el('span', { i18n: 'run.seeBeforeAfter' }));
    b.addEventListener('click', function () {
      selectOp('see');
      $('see-in').value = after;
      $('see-vs').value = before;
      if (model && find(model)) $('see-model').value = model;
      $('see-vs-model').value = vsModel && find(vsModel) ? vsModel : '';
      $('see-in').setAttribute('data-user', '1');
      $('see-vs').setAttribute('data-user', '1');
      seeRange();
      draw();
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
        block.appendChild(table(['f.model', 'sum.bones', 'check.keys'], (d.bodies || []).map(function (b) {
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

  ops.size = function () {
    if (!need(['size-in', 'size-from', 'size-to'])) return;
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
      var rep = null;
      outs.forEach(function (o) { if (o.name === report) { try { rep = JSON.parse(new TextDecoder('utf-8').decode(new Uint8Array(o.data))); } catch (e) { rep = null; } } });
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
    perform('op.job', [{ argv: ['posekit', 'run', arg(job)], names: files.map(function (f) { return f.name; }), render: null }]);
  };

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
    if (drawing || running) { drawAgain = true; return; }
    drawing = true;
    var a = seeArgv();
    var done = function () {
      drawing = false;
      if (drawAgain) { drawAgain = false; draw(); } else if (playing) setTimeout(playNext, 0);
    };
    runOne(a.argv, a.names).then(function (r) {
      var box = $('result');
      var block = box.querySelector('.block.see');
      if (!block) { clearResult(); block = section('op.see'); block.classList.add('see'); }
      lastResultUrls.forEach(function (u) { if (u) URL.revokeObjectURL(u); });
      lastResultUrls = [];
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
          p.appendChild(downloadLink(f));
          lastResultUrls.push(f.url);
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

  /* ---------- wiring ---------- */

  function selectOp(name) {
    stopPlay();
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
        renderFiles();
      });
    }
    $('file-input').addEventListener('change', function (ev) {
      var input = ev.target;
      addFileList(input.files).then(function () { input.value = ''; });
    });
    var drop = $('drop');
    ['dragenter', 'dragover'].forEach(function (t) {
      document.addEventListener(t, function (ev) { ev.preventDefault(); drop.classList.add('over'); });
    });
    ['dragleave', 'drop'].forEach(function (t) {
      document.addEventListener(t, function (ev) { ev.preventDefault(); if (t === 'drop' || ev.target === document.documentElement) drop.classList.remove('over'); });
    });
    document.addEventListener('drop', function (ev) {
      if (ev.dataTransfer && ev.dataTransfer.files && ev.dataTransfer.files.length) addFileList(ev.dataTransfer.files);
    });
    var radios = document.querySelectorAll('input[name=op]');
    for (var j = 0; j < radios.length; j++) radios[j].addEventListener('change', function (ev) { selectOp(ev.target.value); });
    var forms = document.querySelectorAll('form.op');
    for (var k = 0; k < forms.length; k++) {
      forms[k].addEventListener('submit', function (ev) {
        ev.preventDefault();
        var op = ev.currentTarget.getAttribute('data-op');
        if (op === 'see') draw(); else ops[op]();
      });
    }
    var sels = document.querySelectorAll('select[data-kinds]');
    for (var m = 0; m < sels.length; m++) {
      sels[m].addEventListener('change', function (ev) { ev.target.setAttribute('data-user', '1'); defaults(); seeRange(); });
    }
    $('see-frame').addEventListener('input', function () { stopPlay(); syncFrame('see-frame', 'see-frame-n'); });
    $('see-frame-n').addEventListener('change', function () { stopPlay(); syncFrame('see-frame-n', 'see-frame'); });
    $('see-play').addEventListener('click', togglePlay);
    $('see-view').addEventListener('change', function () { if ($('see-in').value && $('see-model').value) draw(); });
    $('busy-cancel').addEventListener('click', function () { E.cancel(); });
    E.onReady(function (v) { $('engine-version').textContent = v ? 'posekit ' + v : ''; $('engine-error').hidden = true; });
    E.onFail(function (e) {
      var b = $('engine-error');
      b.textContent = T('run.engineError', [e && e.message || String(e)]);
      b.hidden = false;
    });
    E.start();
    refreshSelects();
    renderFiles();
  }

  window.PK_APP = { files: function () { return files; }, selectOp: selectOp };
  init();
})();
