/* posekit page: the size step's dancers — dancer 1's fields are the
 * page's own (size-in, size-from, size-to); "+ Add a dancer" adds a
 * fieldset per further dancer (size-in-N, size-from-N, size-to-N, N its
 * place), each with a button that removes it; the others are numbered
 * again.  With two or more the shared scale shows and the camera is off
 * (a camera is sized with one dance).  PK_DANCERS. */
(function () {
  'use strict';
  var T = PK_I18N.t;
  var U = PK_UI, $ = U.$, el = U.el;
  var F = PK_FILES;

  function ids(n) {
    var s = n === 1 ? '' : '-' + n;
    return { dance: 'size-in' + s, from: 'size-from' + s, to: 'size-to' + s };
  }
  function more() { return Array.prototype.slice.call($('size-more').querySelectorAll('fieldset.dancer')); }
  function count() { return 1 + more().length; }

  function field(labelKey, kinds, builtin) {
    var row = el('div', { cls: 'row' });
    var sel = el('select', { 'data-kinds': kinds, required: '' });
    if (builtin) sel.setAttribute('data-builtin', '1');
    sel.addEventListener('change', function () { sel.setAttribute('data-user', '1'); F.defaults(); });
    row.appendChild(el('label', { i18n: labelKey }));
    row.appendChild(sel);
    return row;
  }

  /* ids, labels and legends after the fieldsets' order */
  function renumber() {
    more().forEach(function (fs, i) {
      var n = i + 2, id = ids(n);
      fs.id = 'size-dancer-' + n;
      var leg = fs.querySelector('legend');
      leg.setAttribute('data-i18n-args', JSON.stringify([n]));
      leg.textContent = T('size.dancer', [n]);
      var sels = fs.querySelectorAll('select'), labs = fs.querySelectorAll('label');
      [id.dance, id.from, id.to].forEach(function (x, k) { sels[k].id = x; labs[k].setAttribute('for', x); });
      var rm = fs.querySelector('button.remove');
      rm.setAttribute('aria-label', T('size.remove') + ' (' + T('size.dancer', [n]) + ')');
    });
  }

  /* what shows with one dancer and with several */
  function update() {
    var several = count() > 1;
    $('op-size').classList.toggle('several', several);
    $('size-scale-row').hidden = !several;
    $('size-scale-n').hidden = $('size-scale').value !== 'set';
    $('size-camera').disabled = several;
    $('size-camera-hint').hidden = !several;
    if (several) $('size-camera').setAttribute('aria-describedby', 'size-camera-hint');
    else $('size-camera').removeAttribute('aria-describedby');
  }

  function add() {
    var fs = el('fieldset', { cls: 'dancer' });
    fs.appendChild(el('legend', { i18n: 'size.dancer' }));
    fs.appendChild(field('f.dance', 'motion'));
    fs.appendChild(field('f.from', 'model body', true));
    fs.appendChild(field('f.to', 'model body'));
    var rm = el('button', { type: 'button', cls: 'small remove' });
    rm.appendChild(el('span', { i18n: 'size.remove' }));
    rm.addEventListener('click', function () { remove(fs); });
    fs.appendChild(el('div', { cls: 'row' }, [el('span'), el('div', null, [rm])]));
    $('size-more').appendChild(fs);
    renumber();
    update();
    F.refresh();
    var n = count();
    $(ids(n).dance).focus();
    $('files-status').textContent = T('size.added', [n]);
  }

  function remove(fs) {
    var n = more().indexOf(fs) + 2;
    fs.parentNode.removeChild(fs);
    renumber();
    update();
    $('size-add').focus();
    $('files-status').textContent = T('size.removed', [n]);
  }

  /* the dancers, in order: {dance, from, to} (names, or @body for from) */
  function list() {
    var out = [];
    for (var n = 1; n <= count(); n++) {
      var id = ids(n);
      out.push({ dance: $(id.dance).value, from: $(id.from).value, to: $(id.to).value });
    }
    return out;
  }

  function required() {
    var r = [];
    for (var n = 1; n <= count(); n++) { var id = ids(n); r.push(id.dance, id.from, id.to); }
    return r;
  }

  /* until the user picks: a further dancer's dance one no dancer before
   * it has, where there is one; each source the model its dance was made
   * for (by the model's name), else @auto; each target another model */
  function defaults() {
    var used = [];
    for (var n = 1; n <= count(); n++) {
      var id = ids(n), ds = $(id.dance);
      if (n > 1 && !ds.hasAttribute('data-user') && used.indexOf(ds.value) >= 0) {
        for (var i = 0; i < ds.options.length; i++) {
          if (used.indexOf(ds.options[i].value) < 0) { ds.value = ds.options[i].value; break; }
        }
      }
      used.push(ds.value);
      var from = $(id.from);
      if (!from.hasAttribute('data-user')) {
        var dance = F.find(ds.value);
        var want = dance && dance.info ? dance.info.model : null;
        var pick = '@auto';
        F.list().forEach(function (f) { if (f.kind === 'model' && f.info && want && f.info.model === want) pick = f.name; });
        from.value = pick;
      }
      F.differ(id.from, id.to);
    }
  }

  function init() {
    $('size-add').addEventListener('click', add);
    $('size-scale').addEventListener('change', function () {
      update();
      if ($('size-scale').value === 'set') $('size-scale-n').focus();
    });
    update();
  }

  window.PK_DANCERS = { list: list, required: required, defaults: defaults, count: count, ids: ids, init: init, relabel: renumber };
})();
