/* posekit page: the small tools every part uses — elements, names, and
 * the result panel (the command, its status and messages, tables, the
 * engine's pictures, downloads).  PK_UI. */
(function () {
  'use strict';
  var T = PK_I18N.t;
  var lastResultUrls = []; /* blob URLs of the result panel, freed with it */

  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (k === 'text') e.textContent = attrs[k];
        else if (k === 'cls') e.className = attrs[k];
        else if (k === 'i18n') { e.setAttribute('data-i18n', attrs[k]); e.textContent = T(attrs[k], attrs.args); }
        else if (k === 'args') e.setAttribute('data-i18n-args', JSON.stringify(attrs[k])); /* i18n's {0}, {1}... */
        else e.setAttribute(k, attrs[k]);
      });
    }
    (kids || []).forEach(function (c) { if (c != null) e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return e;
  }
  function ext(name) { var m = /\.([^.]+)$/.exec(name); return m ? m[1].toLowerCase() : ''; }
  function base(name) { return name.replace(/\.[^.]+$/, ''); }
  function safe(s) { return s.replace(/[\/\\:*?"<>|\x00-\x1f]/g, '_'); }
  /* an argument naming a file (an input or an output): a name starting with
   * "-" would read as an option */
  function arg(name) { return name.charAt(0) === '-' ? './' + name : name; }
  function fmt(x, d) { return (typeof x === 'number' && isFinite(x)) ? x.toFixed(d) : String(x); }
  function quote(a) { return /^[A-Za-z0-9_@%+=:,.\/-]+$/.test(a) ? a : "'" + a.replace(/'/g, "'\\''") + "'"; }


  function downloadLink(f) {
    if (!f.url) f.url = URL.createObjectURL(new Blob([f.data], { type: 'application/octet-stream' }));
    var a = el('a', { href: f.url, download: f.name.replace(/\//g, '_'), cls: 'button small', 'data-file': f.name });
    a.appendChild(el('span', { i18n: 'files.download' }));
    a.appendChild(el('span', { cls: 'visually-hidden', text: ' ' + f.name }));
    return a;
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
      r.forEach(function (c, i) {
        if (c && typeof c === 'object') { row.appendChild(el('td', c)); return; } /* {i18n, args}: follows the language */
        row.appendChild(el('td', { text: c == null ? '' : String(c), cls: typeof c === 'number' || i > 0 && /^-?[0-9.]+$/.test(String(c)) ? 'n' : '' }));
      });
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
      li.appendChild(document.createTextNode(' '));
      li.appendChild(el('span', { cls: 'file-size', i18n: 'files.bytes', args: [f.data.byteLength.toLocaleString('en')] }));
      li.appendChild(document.createTextNode(' '));
      li.appendChild(downloadLink(f));
      if (f.only) lastResultUrls.push(f.url);
      ul.appendChild(li);
    });
    parent.appendChild(ul);
  }

  /* a URL the result panel holds, freed when the panel is cleared */
  function keepUrl(u) { lastResultUrls.push(u); }
  function freeUrls() {
    lastResultUrls.forEach(function (u) { if (u) URL.revokeObjectURL(u); });
    lastResultUrls = [];
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
    /* check without a model: 1 says no built-in body has any of its bones */
    var what = differ && argv[1] === 'check' && argv.indexOf('--model') < 0 ? 'checkBodies' : argv && argv[1];
    var key = bad ? 'run.failed' : differ ? 'run.differ.' + what : 'run.ok';
    p.setAttribute('data-i18n', key);
    p.textContent = T(key);
    parent.appendChild(p);
    return !bad;
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

  window.PK_UI = {
    $: $, el: el, ext: ext, base: base, safe: safe, arg: arg, fmt: fmt, quote: quote,
    downloadLink: downloadLink, clearResult: clearResult, keepUrl: keepUrl, freeUrls: freeUrls, section: section,
    showCommand: showCommand, showMessages: showMessages, table: table, showPicture: showPicture,
    outputsBlock: outputsBlock, fail: fail, statusLine: statusLine, need: need
  };
})();
