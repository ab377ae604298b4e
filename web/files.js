/* posekit page: the files the page holds — read with the engine's
 * `info --json`, listed with what each is, offered in the steps' fields.
 * PK_FILES.  Nothing leaves the page: the bytes stay in memory. */
(function () {
  'use strict';
  var T = PK_I18N.t;
  var E = PK_ENGINE;
  var U = PK_UI, $ = U.$, el = U.el, ext = U.ext, arg = U.arg;
  var files = []; /* {name, data, kind, info, error, warnings, made, url} */

  function find(name) { for (var i = 0; i < files.length; i++) if (files[i].name === name) return files[i]; return null; }

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
    if (nw) parts.push(T(nw === 1 ? 'sum.warning' : 'sum.warnings', [nw]));
    return parts.join(' · ');
  }

  /* a VMD with no keys (signature, model name, four empty counts): what a
   * rules file is tried on when it is added */
  var PROBE = 'posekit-no-keys.vmd';
  function noKeysVmd() {
    var b = new Uint8Array(66), sig = 'Vocaloid Motion Data 0002';
    for (var i = 0; i < sig.length; i++) b[i] = sig.charCodeAt(i);
    return b.buffer;
  }

  /* A YAML file read by the engine when it is added, as a step will read
   * it, so a mistake shows then and not at the step: a body by info, a
   * rules file (loaded and checked whole: syntax, keys, values) by mirror
   * on a motion with no keys, with the page's other YAML files beside it
   * (an include).  A job is read when it runs: its inputs are found then. */
  function checkYaml(f, kind) {
    var argv, sent = [{ name: f.name, data: f.data }];
    if (kind === 'body') argv = ['posekit', 'info', '--json', arg(f.name)];
    else if (kind === 'rules') {
      argv = ['posekit', 'mirror', PROBE, '--rules', arg(f.name), '-o', '/dev/null'];
      sent.push({ name: PROBE, data: noKeysVmd() });
      files.forEach(function (o) {
        if (o.name !== f.name && o.name !== PROBE && o.data && /\.ya?ml$/i.test(o.name)) sent.push({ name: o.name, data: o.data });
      });
    } else {
      f.kind = kind;
      return Promise.resolve(f);
    }
    return E.run(argv, sent).then(function (r) {
      if (r.status !== 0) {
        f.kind = 'bad';
        f.error = r.stderr.trim() || ('exit status ' + r.status);
      } else f.kind = kind;
      return f;
    }, function (err) {
      f.kind = 'bad';
      f.error = T('run.engineError', [err.message || String(err)]);
      return f;
    });
  }

  function inspect(f) {
    var e = ext(f.name);
    if (e === 'yaml' || e === 'yml') {
      f.text = new TextDecoder('utf-8').decode(new Uint8Array(f.data));
      /* 'reading' until the engine has read it: another file's end
       * redraws the list and the steps' fields meanwhile, and a rules
       * file not read yet is neither offered nor shown as rules */
      return checkYaml(f, classifyYaml(f.text));
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
      $('files-status').textContent = f.kind === 'bad' ? T('files.notRead', [f.name]) + ': ' + f.error
        : T('files.added', [f.name]) + ': ' + T('kind.' + f.kind);
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
      if (f.made) actions.appendChild(U.downloadLink(f));
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
    if (window.PK_SEE) PK_SEE.range();
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
    if (window.PK_DANCERS) PK_DANCERS.defaults(); /* the size step's (dancers.js) */
    differ('diff-a', 'diff-b');
    differ('overlay-in', 'overlay-pose');
    /* check suggests rules for a model only: no model, nothing to offer */
    $('check-suggest').disabled = !$('check-model').value;
  }

  window.PK_FILES = {
    list: function () { return files; }, find: find, add: addFile, addList: addFileList, render: renderFiles,
    refresh: refreshSelects, defaults: defaults, differ: differ
  };
})();
