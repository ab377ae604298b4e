/*
 * worker.js — the page's engine: posekit compiled to WebAssembly (the CLI
 * itself, cli/main_web.c), run in a Web Worker one command at a time.
 * web/build.sh puts this file and the engine module (PosekitModule) into
 * one function, posekit-engine.js, from which the page makes the worker
 * (a Blob URL: a page opened from file:// may not load a worker script or
 * fetch a .wasm).  The protocol (doc/web.md):
 *
 *   worker -> page  {type:'ready', version}            once, when loaded
 *   page -> worker  {type:'run', id, argv, files:[{name, data}]}
 *       argv as typed at a prompt (argv[0] 'posekit'); each file (data an
 *       ArrayBuffer) is written into a fresh, empty working folder, where
 *       the command runs exactly as the native CLI would;
 *   worker -> page  {type:'progress', id, done, what}  0 <= done <= 1
 *   worker -> page  {type:'done', id, status, stdout, stderr, files, ms}
 *       status the CLI's exit status; stdout and stderr its text; files
 *       every file the command created or changed, [{name, data}] (name
 *       relative to the working folder, '/' between folders, data an
 *       ArrayBuffer, transferred); ms the command's own time in
 *       milliseconds; then the folder is emptied.
 *   worker -> page  {type:'error', message}         instead of 'ready' when
 *       the engine cannot load;
 *   A message the worker does not understand, or an engine that crashed,
 *   gives 'done' with status 70 and the reason on stderr; a crashed
 *   engine is loaded again before the next command.
 *
 * In node (tests), require() this file for posekitWorkerRunner.
 */
/* global PosekitModule */
'use strict';

/* A growable byte buffer for a standard stream. */
function posekitStream() {
    var buf = new Uint8Array(1 << 12), len = 0;
    return {
        put: function (b) {
            if (len === buf.length) {
                var nb = new Uint8Array(buf.length * 2);
                nb.set(buf);
                buf = nb;
            }
            buf[len++] = b;
        },
        take: function () {
            var out = buf.slice(0, len);
            len = 0;
            return out;
        }
    };
}

/* The runner: loads the module from factory (PosekitModule) and runs
 * messages; post(message, transfer) sends to the page. */
function posekitWorkerRunner(factory, post) {
    var out = posekitStream(), err = posekitStream();
    var engine = null, version = null, current = null, lastPost = 0, lastDone = -1;
    var decoder = new TextDecoder('utf-8');

    function load() {
        return factory({
            noInitialRun: true,
            thisProgram: 'posekit',
            print: function () {}, /* the runtime's own messages: not the CLI's */
            printErr: function () {},
            preRun: [function (M) {
                M.FS.init(function () { return null; }, out.put, err.put);
            }]
        }).then(function (M) {
            M.onProgress = progress;
            growFilesFaster(M.FS);
            engine = M;
            return M;
        });
    }

    /* The in-memory file system grows a file being written by 1.125 times
     * past 1 MB, copying it each time: a 28 MB output cost half a second
     * of copying.  Doubling (1.25 times past 256 MB) keeps writing linear. */
    function growFilesFaster(FS) {
        var MEMFS = FS.filesystems && FS.filesystems.MEMFS;
        if (!MEMFS || typeof MEMFS.expandFileStorage !== 'function')
            return;
        MEMFS.expandFileStorage = function (node, want) {
            var had = node.contents ? node.contents.length : 0;
            if (had >= want)
                return;
            var cap = Math.max(want, 256, Math.floor(had * (had < (256 << 20) ? 2 : 1.25)));
            var old = node.contents;
            node.contents = new Uint8Array(cap);
            if (node.usedBytes > 0)
                node.contents.set(old.subarray(0, node.usedBytes), 0);
        };
    }

    function progress(cmd, done, what) {
        if (current === null)
            return;
        var now = Date.now();
        /* at most every 50 ms, and every whole percent */
        if (now - lastPost < 50 && Math.floor(done * 100) === Math.floor(lastDone * 100))
            return;
        lastPost = now;
        lastDone = done;
        post({type: 'progress', id: current, done: Math.max(0, Math.min(1, done)), what: what});
    }

    function mkdirs(FS, path) {
        var parts = path.split('/'), at = '';
        for (var i = 0; i < parts.length - 1; i++) {
            at += (i ? '/' : '') + parts[i];
            if (at && !FS.analyzePath(at).exists)
                FS.mkdir(at);
        }
    }

    /* Every file under dir: [{name, path}], names relative to dir. */
    function walk(FS, dir, prefix, list) {
        FS.readdir(dir).forEach(function (n) {
            if (n === '.' || n === '..')
                return;
            var path = dir + '/' + n, st = FS.stat(path);
            if (FS.isDir(st.mode))
                walk(FS, path, prefix + n + '/', list);
            else if (FS.isFile(st.mode))
                list.push({name: prefix + n, path: path});
        });
        return list;
    }

    function removeTree(FS, dir) {
        FS.readdir(dir).forEach(function (n) {
            if (n === '.' || n === '..')
                return;
            var path = dir + '/' + n;
            if (FS.isDir(FS.stat(path).mode))
                removeTree(FS, path);
            else
                FS.unlink(path);
        });
        FS.rmdir(dir);
    }

    /* Equal bytes?  Four at a time where both start on a 4-byte boundary. */
    function same(a, b) {
        if (a.length !== b.length)
            return false;
        var i = 0;
        if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
            var n = a.length >> 2;
            var wa = new Int32Array(a.buffer, a.byteOffset, n);
            var wb = new Int32Array(b.buffer, b.byteOffset, n);
            for (; i < n; i++)
                if (wa[i] !== wb[i])
                    return false;
            i = n << 2;
        }
        for (; i < a.length; i++)
            if (a[i] !== b[i])
                return false;
        return true;
    }

    function fail(id, why) {
        post({type: 'done', id: id, status: 70, stdout: '', stderr: 'posekit: ' + why + '\n',
              files: []});
    }

    var serial = 0;
    function run(msg) {
        var M = engine, FS = M.FS;
        var argv = msg.argv, files = msg.files || [];
        if (!Array.isArray(argv) || argv.length < 1)
            return fail(msg.id, 'no command (argv is empty)');
        var dir = '/work' + (++serial);
        FS.mkdir(dir);
        FS.chdir(dir);
        var inputs = {};
        try {
            files.forEach(function (f) {
                var name = String(f.name);
                if (!name || name[0] === '/' || name.split('/').indexOf('..') >= 0)
                    throw new Error('a file name must be relative and stay in its folder: ' + name);
                var bytes = new Uint8Array(f.data);
                mkdirs(FS, name);
                FS.writeFile(name, bytes);
                inputs[name] = {bytes: bytes, node: FS.lookupPath(name).node};
            });
        } catch (e) {
            FS.chdir('/');
            removeTree(FS, dir);
            return fail(msg.id, String(e.message || e));
        }
        out.take();
        err.take();
        current = msg.id;
        lastPost = 0;
        lastDone = -1;
        var status, crashed = null, t0 = Date.now();
        try {
            status = M.callMain(argv.slice(1).map(String));
        } catch (e) {
            crashed = e;
        }
        var ms = Date.now() - t0;
        current = null;
        var stdout = decoder.decode(out.take()), stderr = decoder.decode(err.take());
        var result = [], transfer = [];
        if (crashed === null && typeof status === 'number') {
            walk(FS, dir, '', []).forEach(function (f) {
                var input = inputs[f.name];
                /* an input left alone: the very file written before (a
                 * command replaces a file by renaming a new one over it) */
                if (input && FS.lookupPath(f.path).node === input.node &&
                    input.node.usedBytes === input.bytes.length)
                    return;
                var data = FS.readFile(f.path);
                if (input && same(input.bytes, data))
                    return;
                var copy = data.slice().buffer;
                result.push({name: f.name, data: copy});
                transfer.push(copy);
            });
        } else {
            status = 70;
            stderr += 'posekit: the engine stopped: ' + String(crashed && crashed.message || crashed) +
                '\n';
            engine = null; /* its state is lost: a new one for the next command */
        }
        if (engine) {
            FS.chdir('/');
            removeTree(FS, dir);
        }
        post({type: 'done', id: msg.id, status: status, stdout: stdout, stderr: stderr,
              files: result, ms: ms}, transfer);
    }

    var queue = Promise.resolve();
    function handle(msg) {
        queue = queue.then(function () {
            if (!msg || msg.type !== 'run')
                return fail(msg && msg.id, 'unknown message type: ' + (msg && msg.type));
            return (engine ? Promise.resolve(engine) : load()).then(function () {
                run(msg);
            });
        }).catch(function (e) {
            fail(msg && msg.id, 'the engine could not run: ' + String(e && e.message || e));
        });
    }

    /* ready: loaded, with the engine's version (posekit --version) */
    queue = load().then(function (M) {
        out.take();
        M.callMain(['--version']);
        version = decoder.decode(out.take()).trim().replace(/^posekit /, '');
        err.take();
        post({type: 'ready', version: version});
    }).catch(function (e) {
        post({type: 'error', message: 'the engine did not load: ' + String(e && e.message || e)});
    });
    return {handle: handle};
}

if (typeof module === 'object' && module.exports) {
    module.exports = {posekitWorkerRunner: posekitWorkerRunner};
} else if (typeof importScripts === 'function' && typeof PosekitModule === 'function') {
    var posekitRunner = posekitWorkerRunner(PosekitModule, function (m, t) {
        self.postMessage(m, t || []);
    });
    self.onmessage = function (e) {
        posekitRunner.handle(e.data);
    };
}
